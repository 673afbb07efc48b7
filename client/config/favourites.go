package config

import (
	"path/filepath"
	"slices"
	"strings"
)

// Favourites: the servers the player starred in the menu's internet list.
const (
	// FavouritesFileName lists the favourite servers, one address a line,
	// in the order they were starred (beside recent.txt).
	FavouritesFileName = "favourites.txt"
	// MaxFavourites is how many favourite servers are kept; starring one
	// more forgets the oldest.
	MaxFavourites = 64
)

// LoadFavourites returns the favourite servers in dir, oldest first (none
// when the file is missing).
func LoadFavourites(dir string) []string {
	return readList(filepath.Join(dir, FavouritesFileName), MaxFavourites)
}

// SetFavourite stars addr (on) or unstars it in the favourites of dir and
// returns the new list.
func SetFavourite(dir, addr string, on bool) ([]string, error) {
	addr = strings.TrimSpace(Clean(addr))
	list := slices.DeleteFunc(LoadFavourites(dir), func(a string) bool { return a == addr })
	if on && addr != "" {
		list = append(list, addr)
		if len(list) > MaxFavourites {
			list = list[len(list)-MaxFavourites:]
		}
	}
	return list, writeFile(filepath.Join(dir, FavouritesFileName), strings.Join(list, "\n")+"\n")
}
