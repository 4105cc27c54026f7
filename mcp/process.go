package mcp

import (
	"io"
	"os/exec"
	"strings"
	"sync"
)

// process is a stdio server's process: the tail of its standard error,
// and the process group it leads, so that closing the mount leaves no
// process it started behind.
type process struct {
	cmd    *exec.Cmd
	stderr *tailBuffer
}

func newProcess(cmd *exec.Cmd, stderr io.Writer) *process {
	p := &process{cmd: cmd, stderr: &tailBuffer{max: 4096}}
	if stderr != nil {
		cmd.Stderr = io.MultiWriter(p.stderr, stderr)
	} else {
		cmd.Stderr = p.stderr
	}
	ownGroup(cmd)
	return p
}

// kill kills what is left of the process group.
func (p *process) kill() {
	if p.cmd.Process != nil {
		killGroup(p.cmd.Process.Pid)
	}
}

// tail returns the last line the process wrote to its standard error.
func (p *process) tail() string {
	s := strings.TrimRight(p.stderr.String(), "\n\r\t ")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimSpace(s)
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - b.max; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
