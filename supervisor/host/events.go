// The event hub: pane added, exited, removed, renamed, attention and title
// changes, fanned out to every events subscription. Publishing never
// blocks and never drops what matters: each subscriber keeps the latest
// event of each kind for each pane (a burst of 3,000 title changes is one
// pending title, the newest), in the order each was first seen, until its
// pusher takes them. Only a subscriber with more than maxPendingEvents
// distinct pending (pane, kind) pairs is dropped, and it is told so: its
// subscription ends with an error frame (code dropped).

package host

import (
	"sync"

	"clowder/supervisor/proto"
)

// maxPendingEvents bounds one subscriber's undelivered (pane, kind) pairs:
// about six per pane, so only thousands of panes changing while the
// subscriber reads nothing reach it.
const maxPendingEvents = 1 << 14

// eventHub fans PaneEvents out to subscribers. Safe for concurrent use.
type eventHub struct {
	mu    sync.Mutex
	subs  map[*eventSub]struct{}
	limit int // pending pairs per subscriber; 0 means maxPendingEvents
}

// eventKey is what coalesces: a newer event of the same kind for the same
// pane replaces the pending one.
type eventKey struct{ pane, kind string }

// eventSub is one subscriber. wake (capacity 1) is signalled when events
// are pending; take hands them over.
type eventSub struct {
	wake    chan struct{}
	filter  map[string]bool // pane ids; nil means all
	limit   int
	mu      sync.Mutex
	pending []proto.PaneEvent
	index   map[eventKey]int // position in pending
	dropped bool             // more than limit pairs were pending
}

func (h *eventHub) subscribe(filter map[string]bool) *eventSub {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs == nil {
		h.subs = map[*eventSub]struct{}{}
	}
	s := &eventSub{wake: make(chan struct{}, 1), filter: filter, limit: h.limit, index: map[eventKey]int{}}
	if s.limit <= 0 {
		s.limit = maxPendingEvents
	}
	h.subs[s] = struct{}{}
	return s
}

func (h *eventHub) unsubscribe(s *eventSub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.subs, s)
}

// publish records e for every interested subscriber. It runs under pane
// locks, so it only ever takes short locks.
func (h *eventHub) publish(e proto.PaneEvent) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		if s.filter == nil || s.filter[e.Pane] {
			s.add(e)
		}
	}
}

// add coalesces e into the pending events and wakes the pusher.
func (s *eventSub) add(e proto.PaneEvent) {
	s.mu.Lock()
	k := eventKey{e.Pane, e.Kind}
	if i, ok := s.index[k]; ok {
		s.pending[i] = e
	} else if len(s.pending) < s.limit {
		s.index[k] = len(s.pending)
		s.pending = append(s.pending, e)
	} else {
		s.dropped = true
	}
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// take returns the pending events, oldest first, and whether the
// subscriber must be dropped.
func (s *eventSub) take() ([]proto.PaneEvent, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.pending
	s.pending, s.index = nil, map[eventKey]int{}
	return out, s.dropped
}
