package org.lockstep.store;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The secrets that prove a lease (issue 26): a writer's secret is the HMAC-SHA256 of its writer id under a key that
 * never leaves the client, so every repository of one client derives the same secret for the same writer, and nobody
 * else can. The database keeps only the secret's SHA-256 (record_lease.secret_hash), and its triggers let a write
 * of a leased customer commit only when it brings the secret (R__20_customer_triggers.sql): the holder's name,
 * session and token, which everyone can read, prove nothing. Kleppmann's fencing token still orders the grants; the
 * secret says who may write under one.
 *
 * <p>A desktop client uses {@link #ofThisProcess()}: its sessions live as long as the process. The command line keeps
 * its key beside its session in the data directory, mode 600, so that the {@code set --lease-token} after a {@code
 * lease acquire} can prove the lease.
 */
public final class LeaseSecrets {

    /** Bytes of key: the HMAC's own block of security. */
    public static final int KEY_BYTES = 32;

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final LeaseSecrets PROCESS = random();

    private final byte[] key;

    private LeaseSecrets(byte[] key) {
        this.key = key.clone();
    }

    /** The key of this process, made at random once; never written anywhere. */
    public static LeaseSecrets ofThisProcess() {
        return PROCESS;
    }

    /** A new key, at random. */
    public static LeaseSecrets random() {
        byte[] key = new byte[KEY_BYTES];
        RANDOM.nextBytes(key);
        return new LeaseSecrets(key);
    }

    /**
     * A key kept by the caller (the command line's, read back from its data directory).
     *
     * @throws IllegalArgumentException when it is shorter than {@link #KEY_BYTES}
     */
    public static LeaseSecrets of(byte[] key) {
        if (key.length < KEY_BYTES) {
            throw new IllegalArgumentException("A lease key has at least " + KEY_BYTES + " bytes, not " + key.length);
        }
        return new LeaseSecrets(key);
    }

    /** The secret of {@code writerId}: the same for every call with this key, unguessable without it. */
    public String secretOf(String writerId) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(mac.doFinal(writerId.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this Java runtime", e);
        }
    }

    /** The SHA-256 the database keeps of {@code writerId}'s secret, to tell a lease of this client from a forgery. */
    public byte[] hashOf(String writerId) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secretOf(writerId).getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
        }
    }

    @Override
    public String toString() {
        return "LeaseSecrets[key hidden]";
    }
}
