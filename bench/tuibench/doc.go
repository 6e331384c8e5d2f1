// Package tuibench measures the whole stack as a user meets it: the real
// clowder binary's TUI inside an outer tmux (the user's terminal), next to
// tmux nested the same way. Idle CPU of the UI and of the server with idle
// panes, and keystroke to screen: send-keys to the outer pane, time until
// the outer capture-pane shows the echo.
package tuibench
