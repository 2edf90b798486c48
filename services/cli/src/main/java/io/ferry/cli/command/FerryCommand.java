package io.ferry.cli.command;

import io.ferry.cli.GlobalOptions;
import io.ferry.cli.Main;
import io.ferry.cli.output.Printer;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintStream;
import java.util.concurrent.Callable;

/** What every command has: the global options (endpoints, credential, output format) of the {@code ferry} it runs under. */
@CommandLine.Command
abstract class FerryCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandSpec spec;

    protected final PrintStream out = System.out;

    protected GlobalOptions global() {
        return ((Main) spec.root().userObject()).globalOptions();
    }

    protected Printer printer() {
        return global().printer(out);
    }
}
