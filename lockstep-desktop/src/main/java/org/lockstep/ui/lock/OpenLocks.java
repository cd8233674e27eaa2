package org.lockstep.ui.lock;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.lockstep.domain.LeaseInfo;

/**
 * The locks of every editor this process has open, so that the application can let go of them all when it stops
 * (a lease is released on window close and on app exit, not left to lapse by its TTL), and so that one
 * window can ask another to let go ("Release there"). Confined to the FX thread.
 */
public final class OpenLocks {

    private final Set<EditLockViewModel> open = Collections.newSetFromMap(new IdentityHashMap<>());

    /** An editor opened with this lock. */
    public void add(EditLockViewModel lock) {
        open.add(lock);
    }

    /** The editor closed: releases its lease (in the background) and forgets it. */
    public void close(EditLockViewModel lock) {
        open.remove(lock);
        lock.close();
    }

    /** Releases every open editor's lease (each in the background) and forgets them; the application stops. */
    public void closeAll() {
        List<EditLockViewModel> all = new ArrayList<>(open);
        open.clear();
        all.forEach(EditLockViewModel::close);
    }

    /**
     * "Release there": asks the open editor holding {@code lease} to let it go; it keeps its edits and says the lock
     * was released from another window.
     *
     * @return whether an open editor held it
     */
    public boolean releaseHeld(LeaseInfo lease) {
        for (EditLockViewModel lock : List.copyOf(open)) {
            if (lock.releaseFromAnotherWindow(lease)) {
                return true;
            }
        }
        return false;
    }

    /** How many editors' locks are open. */
    public int size() {
        return open.size();
    }
}
