package io.ferry.cli.command;

/** A command whose work is in its subcommands ({@code ferry link ls|get|put|rm}): run alone, it prints its usage. */
abstract class CommandGroup extends FerryCommand {

    @Override
    public Integer call() {
        spec.commandLine().usage(out);
        return 0;
    }
}
