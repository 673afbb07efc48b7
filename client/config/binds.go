package config

// Actions are the bindable commands with what the menu calls them, in the
// order the settings screen lists them (Source's command names).
var Actions = []struct{ Command, Label string }{
	{"+forward", "Move up"},
	{"+back", "Move down"},
	{"+moveleft", "Move left"},
	{"+moveright", "Move right"},
	{"+attack", "Fire"},
	{"+attack2", "Alternate fire"},
	{"+reload", "Reload"},
	{"+dash", "Dash"},
	{"slot1", "Weapon 1"},
	{"slot2", "Weapon 2"},
	{"slot3", "Weapon 3"},
	{"invnext", "Next weapon"},
	{"+showscores", "Scores"},
	{"messagemode", "Chat"},
	{"messagemode2", "Team chat"},
	{"incrementvar net_graph 0 3 1", "Cycle net_graph"},
	{"+showhelp", "Controls help"},
}

// DefaultBinds returns the keys of the game before bindings existed, as
// bindings: WASD and the arrows move, mouse1 fires, mouse2 alternate
// fire, R reloads, Shift dashes, 1, 2 and 3 pick a weapon (rifle, rocket
// launcher, shotgun), Q and the wheel cycle them, Tab
// shows the scores, Y and Enter open the chat, U the team chat (Source's
// messagemode2), F3 and N cycle net_graph,
// F1 shows the controls. (Esc and ` are fixed: the menu and the console.)
func DefaultBinds() []Bind {
	return []Bind{
		{"w", "+forward"}, {"uparrow", "+forward"},
		{"s", "+back"}, {"downarrow", "+back"},
		{"a", "+moveleft"}, {"leftarrow", "+moveleft"},
		{"d", "+moveright"}, {"rightarrow", "+moveright"},
		{"mouse1", "+attack"}, {"mouse2", "+attack2"},
		{"r", "+reload"}, {"shift", "+dash"},
		{"1", "slot1"}, {"2", "slot2"}, {"3", "slot3"},
		{"q", "invnext"}, {"mwheelup", "invnext"}, {"mwheeldown", "invnext"},
		{"tab", "+showscores"},
		{"y", "messagemode"}, {"enter", "messagemode"}, {"u", "messagemode2"},
		{"f3", "incrementvar net_graph 0 3 1"}, {"n", "incrementvar net_graph 0 3 1"},
		{"f1", "+showhelp"},
	}
}
