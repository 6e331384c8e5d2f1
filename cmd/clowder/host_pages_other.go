//go:build !linux

package main

// dropStartupPages does nothing where the host cannot tell the kernel
// which pages of its binary it no longer needs.
func dropStartupPages() {}

// dropStartupPagesQuietly is dropStartupPages.
func dropStartupPagesQuietly() {}
