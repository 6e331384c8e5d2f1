// Package assets embeds clowder's defaults: config, keymap, themes, help, and
// the demo recording that `make run` plays until the TUI exists.
//
// Boundaries: assets imports none of clowder's packages.
package assets
