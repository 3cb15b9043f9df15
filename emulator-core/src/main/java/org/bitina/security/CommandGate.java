package org.bitina.security;

import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;

/**
 * Which state-changing commands a cluster member takes: only its run coordinator's (issue 14
 * item 6). Pekko typed messages carry no sender, so a command is known by what it holds.
 *
 * <p>The coordinator draws a fresh random token for each member it places devices on and
 * sends it in that member's spawn command. A spawn command is only a claim: the member asks
 * the issuer it names, at an address the member trusts (its own JVM or a seed it was started
 * with, where the coordinator is), whether it gave that token to this member, under a nonce
 * of the member's own, and acts on the first claim the issuer vouches for. From then on the
 * gate is bound to that token: a later spawn is refused, a halt is taken only with the token.
 * Whoever forges a spawn cannot get it vouched (its token was not issued; an issuer of its own
 * is not at a trusted address; it cannot answer for the real one without the nonce); whoever
 * forges a halt would need a token that only the coordinator and this member have seen (one
 * per member, over TLS links between members that hold the run's credentials).
 *
 * <p>Plain and deterministic: the tokens and nonces are drawn by the caller.
 *
 * @param <C> the claim (the spawn command) handed back when it is vouched for
 */
public final class CommandGate<C> {
    /** Claims under check at once: a flood of forged claims fills memory no further. */
    public static final int MAX_CLAIMS = 64;

    private record Claim<C>(byte[] token, C command) {}

    private final Map<String, Claim<C>> claims = new HashMap<>();
    private byte[] bound;
    private long refused;

    /**
     * A spawn claim with {@code token}, to be checked under {@code nonce}; false when it is
     * refused at once (the gate is bound already, or too many claims are under check).
     */
    public boolean claim(byte[] nonce, byte[] token, C command) {
        if (bound != null || claims.size() >= MAX_CLAIMS || token == null) {
            return false;
        }
        claims.put(HexFormat.of().formatHex(nonce), new Claim<>(token.clone(), command));
        return true;
    }

    /**
     * The issuer's answer to the check under {@code nonce}: the claim to act on (the gate is
     * now bound to its token), or null when there is nothing to act on (no such check, the
     * issuer did not vouch, or another claim won first).
     */
    public C vouched(byte[] nonce, boolean issued) {
        Claim<C> c = nonce == null ? null : claims.remove(HexFormat.of().formatHex(nonce));
        if (c == null || !issued || bound != null) {
            return null;
        }
        bound = c.token();
        claims.clear();
        return c.command();
    }

    /** A check that was never answered; true if there was one. */
    public boolean expire(byte[] nonce) {
        return claims.remove(HexFormat.of().formatHex(nonce)) != null;
    }

    /** Whether a command carrying {@code token} comes from the coordinator this gate is bound to. */
    public boolean authorizes(byte[] token) {
        // constant time: how far a guess matched must not show in the time of the refusal
        return bound != null && token != null && MessageDigest.isEqual(bound, token);
    }

    public boolean isBound() {
        return bound != null;
    }

    /** Counts one more refused command and returns the count so far. */
    public long refuse() {
        return ++refused;
    }

    public long refused() {
        return refused;
    }
}
