package org.lockstep.ui.editor;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a class of {@code ui.editor} that may depend on {@link CustomerEditorViewModel} (JabRef's
 * {@code @AllowedToUse…}): the view that binds to it and the window that shows the view. The editor's parts may not —
 * they get the {@link EditorSession} and their own collaborators — and the architecture test checks that every other
 * class of the package keeps to that. Kept in the class files, where the test reads it.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface AllowedToUseEditorViewModel {

    /** Why this class needs the view model. */
    String value();
}
