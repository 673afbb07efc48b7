// Package cli holds what the tickshot command says about itself before it
// can do anything else: the table of subcommands with their one-line help
// (Commands, Usage), the rule that finds the subcommand in the arguments
// (Split) and, in the build with the game window, the check that a display
// exists (display_linux.go). The functions that run the subcommands are
// the main package's (main.go, and main_window.go for those that need the
// window): they cannot be here, since this table must be readable before
// Ebiten's initialiser runs (below).
//
// Keep this package free of imports other than syscall and unsafe. Ebiten
// opens the display in a package initialiser and panics without one, before
// main runs; this package is initialised before Ebiten only because it
// depends on nothing that Ebiten's packages do not already wait for (Go
// initialises, among the packages whose imports are ready, the one whose
// import path sorts first: "tickshot/internal/cli" sorts before "time" and
// "unicode", which Ebiten needs). Importing fmt, os, strings or time here
// would let Ebiten's initialiser run first and the check come too late.
package cli

// Command is one subcommand of tickshot: a row of the command table.
type Command struct {
	Name    string // as typed: tickshot NAME
	Args    string // what follows the name in the synopsis
	Summary string // one line
	// Window: it needs the game window (Ebiten), so only the build without
	// -tags headless runs it (main_window.go); tickshot-server names the
	// build that has it instead.
	Window bool
}

// Commands lists every subcommand, in the order the help shows them. A new
// subcommand is a row here and its function in main's table (main.go's
// runners, or main_window.go's for a Window row).
var Commands = []Command{
	{"menu", "", "open the main menu: play, host, join, settings (the default without arguments)", true},
	{"play", "", "start a local server with bots and open the game window (the default with flags only)", true},
	{"server", "", "run a dedicated server, without a window", false},
	{"connect", "HOST[:PORT]", "open the game window joined to a server (port 27015 if none)", true},
	{"playdemo", "NAME|PATH", "play a demo recorded with the console's record NAME", true},
	{"lab", "[--preset NAME]", "the lag lab: player 1, the server and player 2 side by side, every netcode knob live", true},
	{"bot", "--server HOST[:PORT]", "run headless network bots with the real client netcode", false},
	{"servers", "[--internet --master URL] [--json]", "list the servers on the local network (LAN), or a master server's (internet)", false},
	{"hitreg", "", "measure the hit registration of lag compensation", false},
	{"loadtest", "--clients N --bots M", "load a server: tick time, CPU, bandwidth, memory", false},
	{"healthcheck", "[--url URL]", "exit 0 if a server's /status answers, else 1 (container HEALTHCHECK)", false},
	{"master", "[--addr HOST:PORT]", "run a master server: the internet server list that game servers register with", false},
	{"help", "[COMMAND]", "show this help, or a command's flags", false},
}

// Lookup returns the row of the subcommand called name.
func Lookup(name string) (Command, bool) {
	for _, c := range Commands {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}

// Split is the argument rule: it returns the subcommand that args (the
// command line without the program's name) name and the arguments that
// follow it. No arguments is menu; -h, -help and --help are help; a first
// argument that is a flag is play, with every argument its own; otherwise
// the first argument is the subcommand's name (which may name none).
func Split(args []string) (name string, rest []string) {
	switch {
	case len(args) == 0:
		return "menu", nil
	case isHelp(args[0]):
		return "help", args[1:]
	case len(args[0]) > 0 && args[0][0] == '-':
		return "play", args
	}
	return args[0], args[1:]
}

// Usage is the top-level help of the program called prog (tickshot or
// tickshot-server): the subcommands it runs, one line each. window is
// false in the headless build (-tags headless), whose help leaves out the
// commands that need the window and says which build has them.
func Usage(prog string, window bool) string {
	s := "Tickshot: a top-down multiplayer shooter with client-side prediction,\n" +
		"entity interpolation and lag compensation.\n\n" +
		"Usage: " + prog + " [COMMAND] [flags]\n\nCommands:\n"
	width := 0
	for _, c := range Commands {
		width = max(width, len(c.Name)+1+len(c.Args))
	}
	absent := ""
	for _, c := range Commands {
		if c.Window && !window {
			absent += ", " + c.Name
			continue
		}
		syn := c.Name + " " + c.Args
		for len(syn) < width {
			syn += " "
		}
		s += "  " + syn + "  " + c.Summary + "\n"
	}
	s += "\nRun \"" + prog + " COMMAND --help\" for a command's flags."
	if window {
		s += " Without a display, use tickshot-server\n(the headless build: make server) for server, bot, hitreg and loadtest.\n"
	} else {
		s += "\nThis is the dedicated-server build (-tags headless), without the game window: " + absent[2:] + "\n" +
			"are in tickshot, the build with the window (make build).\n"
	}
	return s
}

// Prog returns the program name to show for argv0: its base name, or
// "tickshot" when it has none.
func Prog(argv0 string) string {
	for i := len(argv0) - 1; i >= 0; i-- {
		if argv0[i] == '/' {
			argv0 = argv0[i+1:]
			break
		}
	}
	if argv0 == "" {
		return "tickshot"
	}
	return argv0
}

// NoDisplay returns what the windowed build called prog does with args
// when it has no display (why says how that was found): the exit status,
// the text, and whether the text goes to stdout (the top-level help, status
// 0) rather than stderr (one line, status 1).
func NoDisplay(prog string, args []string, why string) (code int, text string, stdout bool) {
	cmd, rest := Split(args)
	if cmd == "help" && len(rest) == 0 {
		return 0, Usage(prog, true), true
	}
	if cmd == "help" && len(rest) > 0 {
		cmd = rest[0]
	}
	if c, ok := Lookup(cmd); ok && c.Window {
		return 1, prog + " " + cmd + ": no display (" + why + "), so the game window cannot open; run it in a desktop session " +
			"or under xvfb-run, or run a dedicated server with tickshot-server (the headless build: make server)\n", false
	}
	line := "tickshot-server"
	for _, a := range args {
		line += " " + a
	}
	return 1, prog + ": no display (" + why + "): this build opens the game window at start and cannot run without one; " +
		"run `" + line + "` instead (tickshot-server is the headless build: make server)\n", false
}

func isHelp(a string) bool { return a == "help" || a == "-h" || a == "-help" || a == "--help" }

func hasSuffix(s, suffix string) bool {
	return len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix
}
