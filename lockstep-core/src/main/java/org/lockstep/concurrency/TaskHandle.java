package org.lockstep.concurrency;

/**
 * A started {@link BackgroundTask}. Cancelling it means its callbacks never run; work that has not begun is skipped,
 * work already running finishes (a database call cannot be taken back) and its result is dropped.
 */
public interface TaskHandle {

    /** Drops the task's result: none of its success or failure callbacks runs from now on. Idempotent. */
    void cancel();

    /** Whether {@link #cancel()} was called. */
    boolean isCancelled();

    /** Whether the task finished (succeeded, failed, or was cancelled and then finished or skipped). */
    boolean isDone();

    /** A handle of nothing: already done; for callers that have no task in flight. */
    TaskHandle NONE = new TaskHandle() {
        @Override
        public void cancel() {
        }

        @Override
        public boolean isCancelled() {
            return false;
        }

        @Override
        public boolean isDone() {
            return true;
        }
    };
}
