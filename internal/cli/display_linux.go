//go:build linux && !android && !headless

package cli

import "syscall"

// The build with the game window cannot start without a display: Ebiten's
// package initialiser opens it and panics with a trace when it cannot. This
// initialiser runs before Ebiten's (see the package comment) and, when no
// X server can be reached, prints the top-level help for a help request,
// or else one line that says so and points to tickshot-server, and exits:
// status 0 for the help, 1 otherwise.
func init() {
	args := cmdline()
	if len(args) == 0 {
		return // no /proc: leave it to Ebiten
	}
	prog := Prog(args[0])
	if hasSuffix(prog, ".test") {
		return // a test binary: its TestMain says what it needs
	}
	why, ok := display()
	if ok {
		return
	}
	if code, msg, stdout := NoDisplay(prog, args[1:], why); stdout {
		syscall.Write(1, []byte(msg))
		syscall.Exit(code)
	} else {
		syscall.Write(2, []byte(msg))
		syscall.Exit(code)
	}
}

// cmdline returns the process's arguments from /proc/self/cmdline (os.Args
// is not set up yet when this package initialises), or nil.
func cmdline() []string {
	fd, err := syscall.Open("/proc/self/cmdline", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer syscall.Close(fd)
	var b []byte
	buf := make([]byte, 4096)
	for len(b) < 1<<20 {
		n, err := syscall.Read(fd, buf)
		if n <= 0 || err != nil {
			break
		}
		b = append(b, buf[:n]...)
	}
	var args []string
	start := 0
	for i, c := range b {
		if c == 0 {
			args = append(args, string(b[start:i]))
			start = i + 1
		}
	}
	if start < len(b) {
		args = append(args, string(b[start:]))
	}
	return args
}

// display reports whether an X server can be reached (GLFW, under Ebiten,
// speaks X11 only), and if not, why: DISPLAY unset, or nothing listening
// on the local socket it names. Remote displays (host:N) are assumed to
// work.
func display() (string, bool) {
	d, _ := syscall.Getenv("DISPLAY")
	if d == "" {
		return "DISPLAY is not set", false
	}
	rest := ""
	switch {
	case d[0] == ':':
		rest = d[1:]
	case len(d) > 5 && d[:5] == "unix:":
		rest = d[5:]
	default:
		return "", true
	}
	n := ""
	for _, c := range rest {
		if c < '0' || c > '9' {
			break
		}
		n += string(c)
	}
	if n == "" {
		return "", true // a form this check does not know: let X decide
	}
	path := "/tmp/.X11-unix/X" + n
	if dial(path) || dial("@"+path) {
		return "", true
	}
	return "no X server at DISPLAY=" + d, false
}

// dial reports whether a unix socket at path (abstract when it starts
// with @) accepts a connection.
func dial(path string) bool {
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return true // cannot tell: let X decide
	}
	defer syscall.Close(fd)
	return syscall.Connect(fd, &syscall.SockaddrUnix{Name: path}) == nil
}
