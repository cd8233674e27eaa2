package org.lockstep.ui.conflict;

import org.lockstep.domain.CustomerField;

/**
 * One field of a conflict, side by side.
 *
 * @param field   the field
 * @param mine    my value as the operator reads it; empty when absent
 * @param theirs  what the database holds now; empty when absent or when theirs was deleted
 * @param differs whether the two values differ (numbers compare by value, so 1000 equals 1000.00)
 */
public record ConflictRow(CustomerField field, String mine, String theirs, boolean differs) {
}
