package org.lockstep.app;

import org.lockstep.server.Database;
import org.lockstep.cli.Desktop;
import org.lockstep.cli.ExitCodes;
import org.lockstep.server.LabConnections;
import org.lockstep.config.LockstepConfig;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;
import org.lockstep.domain.TrainingRecords;
import org.lockstep.shell.DemoApplication;
import org.lockstep.shell.LockstepApplication;
import org.lockstep.store.JdbiCustomerRepository;
import org.lockstep.text.Language;
import org.lockstep.text.Texts;
import org.lockstep.store.JdbiHistoryRepository;
import org.lockstep.store.JdbiLeaseRepository;
import org.lockstep.store.JdbiConflictReports;
import org.lockstep.store.JdbiMessageRepository;
import org.lockstep.store.JdbiPresenceRepository;
import org.lockstep.store.JdbiTrainingRecords;
import org.lockstep.ui.DemoClients;
import org.lockstep.ui.LanguageChoice;
import org.lockstep.ui.UiContext;
import org.lockstep.ui.demo.DemoScreens;

/**
 * The desktop behind the command line: hands the UI the operator's name and a way to open the database (the UI calls
 * it off the FX thread while it shows that the database is starting). {@link #openDemo} opens the trainer demo.
 */
public final class DesktopApp implements Desktop {

    @Override
    public int openEditor(LockstepConfig config, Duration demoLeaseTtl, Optional<Language> lang) {
        useLocale(config);
        useLanguage(lang);
        UiContext context = new UiContext(config.user(), () -> {
            Database db = Database.open(config, "Lockstep");
            return backend(db, config.user(), config.leaseTtl(), config.lockIdle(), db::closeAndStopIfLast,
                    demoClients(db, demoLeaseTtl, config.lockIdle()));
        }, config.allowUnsafe());
        return LockstepApplication.launch(context) == LockstepApplication.OK ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    @Override
    public int openDemo(LockstepConfig config, Duration leaseTtl, Optional<Language> lang, OptionalInt trainerScreen) {
        trainerScreen.ifPresent(DemoScreens::useTrainerScreen);
        useLocale(config);
        useLanguage(lang);
        int code = DemoApplication.launch(() -> {
            Database db = Database.open(config, "Lockstep demo");
            return new DemoApplication.Opened(demoClients(db, leaseTtl, config.lockIdle()), db::closeAndStopIfLast);
        });
        return code == DemoApplication.OK ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    /**
     * A {@code --locale} given replaces the operating system's format locale for this process, which is the one the
     * editor reads and shows numbers in ({@link org.lockstep.ui.EditorLocale}).
     */
    private static void useLocale(LockstepConfig config) {
        config.locale().ifPresent(l -> Locale.setDefault(Locale.Category.FORMAT, l));
    }

    /**
     * The windows speak the {@code --lang} given, else the language chosen in View → Language ({@link LanguageChoice}),
     * else the operating system's display language ({@code LANG} on Linux) when Lockstep speaks it, else English. The
     * command line never comes here, so it stays English.
     */
    private static void useLanguage(Optional<Language> lang) {
        speak(LanguageChoice.operators().choose(lang, Locale.getDefault(Locale.Category.DISPLAY)));
    }

    /**
     * Makes {@code language} the windows' language: Lockstep's own texts, and JavaFX's built-in ones (an alert's
     * "Error" or "Confirmation" title, its OK and Cancel buttons, a text field's Cut/Copy/Paste menu), which JavaFX
     * reads from the process's default locale; without this, {@code --lang pt-BR} on an English system showed
     * "Cancel" beside "Salvar", and View → Language English on a Spanish system showed "Cancelar". The format locale
     * (how the editor reads and shows numbers, {@code --locale}) is kept as it was.
     *
     * @param language the language the windows speak for the rest of the run
     */
    static void speak(Language language) {
        Texts.use(language);
        Locale format = Locale.getDefault(Locale.Category.FORMAT);
        Locale.setDefault(language.locale());
        Locale.setDefault(Locale.Category.FORMAT, format);
    }

    /**
     * The trainer demo's clients on {@code db}: each operator gets a pool of their own on the same server, and the
     * demo's customers are reset through {@code db}'s pool.
     *
     * @param leaseTtl the operators' lease TTL
     * @param lockIdle how long a locking editor may sit idle
     */
    public static DemoClients demoClients(Database db, Duration leaseTtl, Duration lockIdle) {
        TrainingRecords records = new JdbiTrainingRecords(db.jdbi());
        return new DemoClients() {
            @Override
            public UiContext.Backend open(String operator) {
                Database client = db.anotherClient("Lockstep demo (" + operator + ")");
                return backend(client, operator, leaseTtl, lockIdle, client::close, null);
            }

            @Override
            public TrainingRecords records() {
                return records;
            }
        };
    }

    private static UiContext.Backend backend(Database db, String user, Duration leaseTtl, Duration lockIdle,
            Runnable shutdown, DemoClients demo) {
        // One client session for all: presence, messages and the list act as it, and each editor writes as a writer
        // id of its own derived from it (editing.WriterIds), so that one window's lease keeps the others from writing.
        String session = user + "-" + UUID.randomUUID();
        return new UiContext.Backend(new JdbiCustomerRepository(db.jdbi(), user, session),
                new JdbiHistoryRepository(db.jdbi()), new JdbiLeaseRepository(db.jdbi(), user, session),
                leaseTtl, lockIdle, db::changeFeed,
                new JdbiPresenceRepository(db.jdbi(), user, session, JdbiPresenceRepository.DEFAULT_TTL),
                new JdbiMessageRepository(db.jdbi(), user, session), LabConnections.runner(db), shutdown, demo,
                new JdbiConflictReports(db.jdbi()));
    }
}
