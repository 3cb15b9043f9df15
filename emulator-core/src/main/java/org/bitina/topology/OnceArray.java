package org.bitina.topology;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Slots each written once, read from any thread: what the routing's and a BIFT's lazily
 * computed parts are kept in. Values are deterministic, so when two threads compute a slot
 * at once either answer will do; the first one written stays.
 */
final class OnceArray<T> {
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);
    private final Object[] slots;

    OnceArray(int size) {
        slots = new Object[size];
    }

    @SuppressWarnings("unchecked")
    T get(int i) {
        return (T) SLOT.getAcquire(slots, i);
    }

    /** Keeps {@code value} in slot {@code i} unless one is there already; returns what the slot holds. */
    @SuppressWarnings("unchecked")
    T putIfAbsent(int i, T value) {
        Object witness = SLOT.compareAndExchange(slots, i, null, value);
        return witness == null ? value : (T) witness;
    }
}
