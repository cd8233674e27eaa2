package org.lockstep.ui.demo;

import java.util.List;
import org.lockstep.domain.CustomerData;

/**
 * A trainer scenario: a short explanation, the customer it uses (put back to {@code start} before it runs) and its
 * numbered steps.
 *
 * @param number      1 to 7, as the Trainer panel numbers them
 * @param title       e.g. "The lost update"
 * @param explanation two or three sentences for the class
 * @param start       the scenario's customer at version 1; its external reference identifies it. {@code null}
 *                    for a scenario without a customer (7, the contention lab's Black Friday)
 * @param steps       in order
 */
public record Scenario(int number, String title, String explanation, CustomerData start, List<Step> steps) {

    /** "1. The lost update", as the scenario list shows it. */
    @Override
    public String toString() {
        return number + ". " + title;
    }
}
