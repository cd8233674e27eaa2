package org.lockstep.editing;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Writer ids (docs/decisions/0012-one-writer-per-editor.md): every editor of a client writes as an id of its own,
 * {@code "<client session>/editor-<n>"}. Its saves carry it as {@code lockstep.session} and its lease is held by it,
 * so that two windows of one operator are two writers: one's save is announced in the other like anyone's, and one's
 * lease keeps the other from writing. The client session itself stays the client's identity for presence, and a
 * writer id names its client, so that a client tells its own windows' writes and leases from everyone else's without
 * keeping a list of ids.
 */
public final class WriterIds {

    private static final String EDITOR = "/editor-";
    // Process-wide, not per client: every copy of a client's services draws from it, and no two ever meet.
    private static final AtomicLong NEXT = new AtomicLong();

    private WriterIds() {
    }

    /**
     * A new writer id of {@code client}, never handed out before in this process.
     *
     * @param client a client session, or any writer id of that client
     */
    public static String next(String client) {
        return clientOf(client) + EDITOR + NEXT.incrementAndGet();
    }

    /**
     * The client session a writer id belongs to. Any other id — a client session, the command line's session, a
     * script's — is a client of its own and belongs to itself.
     */
    public static String clientOf(String id) {
        int at = id.lastIndexOf(EDITOR);
        if (at < 0 || at + EDITOR.length() == id.length()) {
            return id;
        }
        for (int i = at + EDITOR.length(); i < id.length(); i++) {
            if (!Character.isDigit(id.charAt(i))) {
                return id;
            }
        }
        return id.substring(0, at);
    }

    /** Whether two ids (client sessions or writer ids) belong to the same client: one operator's one process. */
    public static boolean sameClient(String a, String b) {
        return clientOf(a).equals(clientOf(b));
    }

    /** Whether {@code other} is another writer of {@code mine}'s client: another window of the same operator. */
    public static boolean anotherWriterOfMyClient(String other, String mine) {
        return !other.equals(mine) && sameClient(other, mine);
    }
}
