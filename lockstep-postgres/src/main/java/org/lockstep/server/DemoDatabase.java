package org.lockstep.server;

import static org.lockstep.text.Texts.tr;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the trainer demo keeps its customers (issue 27): never in the operators' database. On the embedded server it is
 * {@link EmbeddedServer#DEMO_DATABASE}, made afresh at each demo start; on a server given by {@code --db-url} it is the
 * URL's database with {@value #SUFFIX} added (a URL naming a database that already ends so is taken as it is), which
 * an administrator sets up once as the team's is ({@code lockstep admin setup}). The operators' logins may not create
 * databases, and the demo must not write into the team's; so it finds its own by name, or says how to make it.
 */
public final class DemoDatabase {

    /** What the demo's database's name ends with on a server given by URL. */
    public static final String SUFFIX = "_demo";

    /** pgjdbc's URL forms: {@code jdbc:postgresql:DB}, {@code jdbc:postgresql:/}, {@code //HOSTS/DB}, then {@code ?…}. */
    private static final Pattern URL = Pattern.compile("^(jdbc:postgresql:(?://[^/?]*/|/)?)([^/?]*)(\\?.*)?$");

    private DemoDatabase() {
    }

    /**
     * The demo's database on the server of {@code url}: the same URL naming the URL's database with {@value #SUFFIX}
     * added, with the URL's parameters (login, TLS) kept.
     *
     * @param url a {@code jdbc:postgresql:} URL naming the operators' database; any other URL comes back as it is, for
     *            {@link Database} to refuse
     * @throws IllegalArgumentException when a PostgreSQL URL names no database; the message says what to give
     */
    public static String urlBeside(String url) {
        if (!url.startsWith("jdbc:postgresql:")) {
            return url; // no PostgreSQL URL at all: opening it says so, as the editor's does
        }
        Matcher m = URL.matcher(url);
        if (!m.matches() || m.group(2).isEmpty()) {
            throw new IllegalArgumentException(tr("The trainer demo needs the database''s name in --db-url "
                    + "(jdbc:postgresql://HOST[:PORT]/DATABASE) to find its own beside it, DATABASE{0}.", SUFFIX));
        }
        String name = m.group(2);
        String demo = name.endsWith(SUFFIX) ? name : name + SUFFIX;
        return m.group(1) + demo + (m.group(3) == null ? "" : m.group(3));
    }

    /** The demo's database's URLs beside the operators' {@code urls} (both the pool's and the listener's). */
    static ServerUrls beside(ServerUrls urls) {
        return new ServerUrls(urlBeside(urls.pool()), urlBeside(urls.listen()));
    }

    /** The database a URL of {@link #urlBeside} names. */
    static String nameIn(String url) {
        Matcher m = URL.matcher(url);
        return m.matches() ? m.group(2) : url;
    }

    /** The URL without its parameters, for a message that must not show a password or a login's name. */
    static String withoutParameters(String url) {
        int q = url.indexOf('?');
        return q < 0 ? url : url.substring(0, q);
    }

    /** The one sentence said when the demo's database is not on the server. */
    static String missing(String demoUrl) {
        return tr("The trainer demo keeps its customers apart from the operators'', in the database {0} on this "
                + "server, which does not exist yet: a superuser creates it with lockstep admin setup --db-url {1} "
                + "(docs/admin-guide.md, \"The trainer demo on a team server\").", nameIn(demoUrl),
                withoutParameters(demoUrl));
    }
}
