package org.lockstep.server;

/**
 * The embedded server cannot start, or is not started again, because the disk that holds its data directory is full.
 * The message is one sentence for the operator: the data directory, the file system it is on and its free space, that
 * the edits are kept and what to do ({@link DataDisk#fullSentence()}).
 */
public final class ServerDiskFullException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    ServerDiskFullException(String sentence, Throwable cause) {
        super(sentence, cause);
    }
}
