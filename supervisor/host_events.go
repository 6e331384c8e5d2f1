// The event hub: pane added, exited, removed, attention and title changes,
// fanned out to every events subscription. Publishing never blocks: each
// subscriber has a bounded queue, and one that falls that far behind is
// dropped (its subscription ends) rather than slowing a pane.

package supervisor

import "sync"

// eventQueue bounds one subscriber's undelivered events.
const eventQueue = 1024

// eventHub fans PaneEvents out to subscribers. Safe for concurrent use.
type eventHub struct {
	mu   sync.Mutex
	subs map[*eventSub]struct{}
}

// eventSub is one subscriber: C carries events; it is closed when the
// subscriber is dropped for falling behind or unsubscribes.
type eventSub struct {
	C      chan PaneEvent
	filter map[string]bool // pane ids; nil means all
}

func (h *eventHub) subscribe(filter map[string]bool) *eventSub {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs == nil {
		h.subs = map[*eventSub]struct{}{}
	}
	s := &eventSub{C: make(chan PaneEvent, eventQueue), filter: filter}
	h.subs[s] = struct{}{}
	return s
}

func (h *eventHub) unsubscribe(s *eventSub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, ok := h.subs[s]; ok {
		delete(h.subs, s)
		close(s.C)
	}
}

// publish queues e for every interested subscriber.
func (h *eventHub) publish(e PaneEvent) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		if s.filter != nil && !s.filter[e.Pane] {
			continue
		}
		select {
		case s.C <- e:
		default: // too far behind: drop the subscriber, never the pane
			delete(h.subs, s)
			close(s.C)
		}
	}
}
