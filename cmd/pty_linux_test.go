//go:build linux

package cmd

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"unsafe"
)

// ioctl calls ioctl(2) with a pointer argument.
func ioctl(f *os.File, req uintptr, arg *int32) error {
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), req, uintptr(unsafe.Pointer(arg))); errno != 0 {
		return errno
	}
	return nil
}

// onTerminal runs the binary with a pseudo-terminal as stdin, stdout and stderr (what a user at
// a shell has) and returns what it printed and its exit code.
func onTerminal(t *testing.T, args ...string) (string, int) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer master.Close()
	var unlock, n int32
	if err := ioctl(master, syscall.TIOCSPTLCK, &unlock); err != nil {
		t.Skipf("unlocking the pseudo-terminal: %v", err)
	}
	if err := ioctl(master, syscall.TIOCGPTN, &n); err != nil {
		t.Skipf("pseudo-terminal number: %v", err)
	}
	slave, err := os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("opening the pseudo-terminal: %v", err)
	}
	c := exec.Command(binary, args...)
	c.Dir = ".."
	c.Stdin, c.Stdout, c.Stderr = slave, slave, slave
	if err := c.Start(); err != nil {
		slave.Close()
		t.Fatal(err)
	}
	slave.Close()
	var out bytes.Buffer
	copied := make(chan struct{})
	go func() {
		io.Copy(&out, master) // ends with EIO once the child has exited
		close(copied)
	}()
	err = c.Wait()
	<-copied
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), code
}
