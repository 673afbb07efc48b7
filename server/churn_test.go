package server_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/server"
)

// TestChurnNeverRefusesFreeSlot joins and leaves a 4-slot server as fast as
// possible from 3 goroutines over real websockets: never more than 3 of
// its own clients are connected at once, so every join must be admitted as
// a player — neither refused as "server is full" nor parked as a
// spectator because a player who had already left still held a slot.
func TestChurnNeverRefusesFreeSlot(t *testing.T) {
	_, addr := startServer(t, server.Config{MaxPlayers: 4, Bots: 0})
	const workers, joins = 3, 60
	var wg sync.WaitGroup
	errs := make(chan error, workers*joins)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range joins {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				c, err := netclient.Connect(ctx, netclient.Websocket, addr, netclient.Config{Name: fmt.Sprintf("churn%d", w)})
				cancel()
				if err != nil {
					errs <- fmt.Errorf("worker %d join %d refused with at most %d of 4 slots held: %v", w, i, workers, err)
					return
				}
				if c.Spectating() {
					errs <- fmt.Errorf("worker %d join %d made a spectator with at most %d of 4 slots held", w, i, workers)
				}
				c.Close("churn")
				<-c.Closed() // left: the Disconnect is on the wire
			}
		}()
	}
	wg.Wait()
	close(errs)
	n := 0
	for err := range errs {
		if n++; n <= 5 {
			t.Error(err)
		}
	}
	if n > 5 {
		t.Errorf("... %d failures in all", n)
	}
}
