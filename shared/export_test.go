package shared

// Hooks for the external tests (package shared_test imports game, which
// package shared's own tests cannot).
var (
	SlideMove = slideMove
	NearSlide = nearSlide
)
