package org.lockstep.ui.list;

/**
 * The node ids of the customer list, in the one style ids have (lower camel case, as an FXML {@code fx:id} must be).
 * The list view sets them; the trainer demo and the tests' GUI handles find nodes by them.
 */
public final class ListIds {

    /** The filter field above the table. */
    public static final String CUSTOMER_FILTER = "customerFilter";
    /** The table of customers. */
    public static final String CUSTOMER_TABLE = "customerTable";

    /** The Name column: the company, else the contact's name. */
    public static final String NAME_COLUMN = "nameColumn";

    /** The Lock column: a padlock where someone holds a lock for editing. */
    public static final String LOCK_COLUMN = "lockColumn";
    /** The Here column: who else has the customer open. */
    public static final String PRESENCE_COLUMN = "presenceColumn";

    private ListIds() {
    }
}
