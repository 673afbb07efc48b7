package game

// The world reports what happened as domain events (World.emit into an
// EventLog): the server turns them into wire events, the tests read them.
// They are in world units and ticks and know nothing of the wire.

// EventKind says what an Event reports.
type EventKind uint8

// Event kinds. The fields each uses are listed beside it.
const (
	EvShot       EventKind = iota + 1 // A fired weapon Value from (X, Y) to (X2, Y2); B is the player hit, 0 none
	EvHit                             // A hit B for Value damage at (X2, Y2)
	EvKill                            // A killed B with weapon Value; A stood at (X, Y), B at (X2, Y2)
	EvJoin                            // A joined; Text is the name
	EvLeft                            // A left; Text is the reason
	EvImpact                          // to A only: its command Cmd was traced against B's box at (X, Y); the shot ended at (X2, Y2); Value: Impact* bits
	EvExplode                         // A's projectile exploded at (X, Y) with splash radius Value
	EvMatchEnd                        // A won (Text its name; A = 0 for a draw); in tdm A = 0 and B is the winning Team (0 a draw); the next match starts in Value seconds
	EvMatchStart                      // a new match started; scores are reset
	_                                 // 10: chat, the server's own (proto.EvChat)
	EvTeam                            // A is now on Team Value; Text says why when the server chose (TeamBalanceReason)
)

// EvChangeLevel: the world moved to map Text (ChangeMap); an EvMatchStart
// follows. Its own block keeps the list above as it was.
const EvChangeLevel EventKind = 12

// Event is one thing that happened in the world, in world units and ticks.
type Event struct {
	Kind         EventKind
	Tick         uint32
	A, B         uint16  // player IDs, by Kind
	Value        int     // damage, weapon, radius, seconds or hit flag, by Kind
	X, Y, X2, Y2 float64 // world units
	Text         string
	Cmd          uint32 // the command number an EvImpact answers
	To           uint16 // the only player it concerns, 0 = everyone
}

// EventLog owns the events a world emitted since the caller last took them.
// It keeps one backing array: TakeEvents hands it out and the next tick's
// events overwrite it, so a tick allocates nothing once the log has grown.
type EventLog struct {
	// Events are what happened since the last TakeEvents, in emit order.
	Events []Event
}

// TakeEvents returns the events since the last call and forgets them; the
// slice is reused by the next tick's events.
func (l *EventLog) TakeEvents() []Event {
	ev := l.Events
	l.Events = l.Events[:0]
	return ev
}

// add logs e as happening at tick.
func (l *EventLog) add(tick uint32, e Event) {
	e.Tick = tick
	l.Events = append(l.Events, e)
}
