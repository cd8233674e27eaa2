/**
 * The languages of the desktop UI: {@link org.lockstep.text.Language} and {@link org.lockstep.text.Texts}. A leaf:
 * it leans on no other Lockstep package, so the domain's validation messages, the editing layer's lock messages and
 * every view can speak the operator's language. The command line stays English.
 */
package org.lockstep.text;
