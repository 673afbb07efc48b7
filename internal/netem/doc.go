// Package netem is a lossy-link harness for real kernel TCP and UDP: two
// network namespaces, A and B, each with one TUN device, joined by a link
// emulator in this process that reads every IP packet one side sends,
// delays, jitters, loses (at random or in Gilbert–Elliott bursts) or
// reorders it as its direction's Dir says, and writes it into the other
// side's TUN device. Programs run inside a side with Link.Command (ip netns
// exec) and Go code with Link.Do (setns on a locked OS thread).
//
// It is a userspace stand-in for Linux's `tc qdisc ... netem` (Hemminger
// 2005, "Network Emulation with NetEm"), whose sch_netem module many
// kernels (this project's build machine included) do not have; the knobs
// keep netem's meanings. The link carries only IPv4 between its own two
// addresses (198.18.0.1 and .2, RFC 2544's benchmarking block), never
// reaches the host's network, closes by itself after Config.Lifetime or
// when the context given to Start ends, and removes its namespaces on
// Close; Start first removes the namespaces a crashed earlier run left.
// Needs root, /dev/net/tun and iproute2's ip (Available says which is
// missing). docs/NETEM.md tells how it works.
//
// The harness itself is Linux-only (network namespaces, TUN devices);
// the shaper (Dir, Burst) builds everywhere.
package netem
