package org.bitina.device;

/**
 * A control-plane message that may cross JVMs: bound to Jackson CBOR in application.conf
 * (data-plane frames have their own binary serializer). Java serialisation stays off.
 */
public interface ControlMessage {}
