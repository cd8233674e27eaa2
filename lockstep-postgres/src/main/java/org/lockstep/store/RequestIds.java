package org.lockstep.store;

import java.util.UUID;

/**
 * Request ids: one per write, chosen by the client, so that the write can be recognised later by something only it
 * carries — never by the user name, which many desks share (V9__request_ids.sql). A random (version 4) UUID: 122
 * random bits, so two writes never share one.
 */
final class RequestIds {

    private RequestIds() {
    }

    /** A new request id, as text ({@code CAST(:request AS uuid)} in SQL). */
    static String next() {
        return UUID.randomUUID().toString();
    }
}
