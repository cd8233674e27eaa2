package org.lockstep.ui.demo;

import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * One numbered step of a trainer scenario.
 *
 * @param text   what happens, as the Trainer panel lists it ("Alice saves: version 2.")
 * @param notice what the class should notice once it has happened, shown after the step
 * @param action carries the step out in the operator windows; completes once its effect is visible there
 */
public record Step(String text, String notice, Function<Cast, CompletableFuture<Void>> action) {
}
