// Command pause is the pod sandbox ("pause") container of the test node: it holds the pod's
// namespaces open, reaps orphaned children (it is PID 1 of the pod when PID namespaces are
// shared) and exits on SIGINT or SIGTERM. Built static, it is the whole image.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	signals := make(chan os.Signal, 4)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM, syscall.SIGCHLD)
	for s := range signals {
		if s != syscall.SIGCHLD {
			os.Exit(0)
		}
		for {
			pid, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil)
			if pid <= 0 || err != nil {
				break
			}
		}
	}
}
