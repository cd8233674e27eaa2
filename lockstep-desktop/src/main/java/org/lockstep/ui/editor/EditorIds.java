package org.lockstep.ui.editor;

import java.util.Arrays;
import java.util.Optional;
import org.lockstep.domain.CustomerField;

/**
 * The node ids of a customer editor, in the one style ids have (lower camel case, as an FXML {@code fx:id} must be
 * a Java name). The view sets them ({@code fx:id} in CustomerEditorView.fxml, {@code setId} in Java); the trainer
 * demo's hands and the tests' GUI handles find nodes by them ({@code "#" + id}), so a renamed node breaks the
 * compile, not a scenario.
 */
public final class EditorIds {

    public static final String SAVE_BUTTON = "saveButton";
    public static final String REVERT_BUTTON = "revertButton";
    public static final String DELETE_BUTTON = "deleteButton";
    public static final String RELOAD_BUTTON = "reloadButton";
    public static final String NOTICE_BAR = "noticeBar";
    public static final String NOTICE_TEXT = "noticeText";
    public static final String VERSION_LINE = "versionLine";
    public static final String SAVE_BLOCKED_REASON = "saveBlockedReason";
    public static final String TABS = "tabs";
    public static final String OPTIMISTIC_MODE = "optimisticMode";
    public static final String LOCK_MODE = "lockMode";
    public static final String UNSAFE_MODE = "unsafeMode";
    public static final String UNSAFE_WARNING = "unsafeWarning";
    public static final String LOCK_BUTTON = "lockButton";
    public static final String LOCK_BAR = "lockBar";
    public static final String LOCK_MESSAGE = "lockMessage";
    public static final String NOTIFY_WHEN_FREE = "notifyWhenFree";
    public static final String BREAK_LOCK_BUTTON = "breakLockButton";
    public static final String SWITCH_TO_LOCK_BUTTON = "switchToLockButton";
    public static final String LIVE_BAR = "liveBar";
    public static final String LIVE_TEXT = "liveText";
    public static final String HOT_RECORD_BAR = "hotRecordBar";
    public static final String HOT_RECORD_ADVICE = "hotRecordAdvice";
    public static final String HOT_RECORD_DETAIL = "hotRecordDetail";
    /** The close buttons of the banners (Escape closes them too, one at a time). */
    public static final String NOTICE_DISMISS = "noticeDismiss";
    public static final String LIVE_DISMISS = "liveDismiss";
    public static final String LOCK_DISMISS = "lockDismiss";
    public static final String HOT_RECORD_DISMISS = "hotRecordDismiss";
    /** "1 more" in the banner shown, when more messages wait: it shows the next one. */
    public static final String MORE_MESSAGES = "moreMessages";
    /** News told once over the form's bottom edge ("Saved version 7"), fading after a few seconds. */
    public static final String TOAST = "toast";
    /** The box holding the banners, below the form and above the buttons. */
    public static final String BANNERS = "banners";
    /** The dialog pane of "Message the holder…". */
    public static final String MESSAGE_HOLDER = "messageHolder";
    /** "Ask a supervisor…" in the lock bar, and what it says once sent (the dialog's ids: AskSupervisorDialog). */
    public static final String ASK_SUPERVISOR_BUTTON = "askSupervisorButton";
    public static final String ASKED_SUPERVISORS = "askedSupervisors";
    public static final String HISTORY_STATUS = "historyStatus";
    public static final String HISTORY_VERSIONS = "historyVersions";
    public static final String HISTORY_HEADING = "historyHeading";
    public static final String HISTORY_DIFFERENCE = "historyDifference";
    public static final String RESTORE_VERSION = "restoreVersion";

    private EditorIds() {
    }

    /** The control of one field: its column in camel case, e.g. {@code creditLimit} for {@code credit_limit}. */
    public static String field(CustomerField field) {
        StringBuilder id = new StringBuilder();
        boolean upper = false;
        for (char c : field.column().toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                id.append(upper ? Character.toUpperCase(c) : Character.toLowerCase(c));
                upper = false;
            }
        }
        return id.toString();
    }

    /** The field whose control has {@code id}, if it is one. */
    public static Optional<CustomerField> fieldOf(String id) {
        return Arrays.stream(CustomerField.values()).filter(f -> field(f).equals(id)).findFirst();
    }

    /** The label under a field saying why its value cannot be saved, e.g. {@code creditLimitError}. */
    public static String fieldError(CustomerField field) {
        return field(field) + "Error";
    }

    /** The label under a field with a rule its stored value breaks, e.g. {@code creditLimitWarning}. */
    public static String fieldWarning(CustomerField field) {
        return field(field) + "Warning";
    }

    /** The brief note under a one-line field that a paste's line breaks became spaces, e.g. {@code contactNameNote}. */
    public static String fieldNote(CustomerField field) {
        return field(field) + "Note";
    }
}
