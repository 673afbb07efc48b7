package master

// The register contract (docs/PROTOCOL.md, "The internet server list"):
// a game server POSTs a RegisterRequest as JSON to the master's
// RegisterPath every RegisterEvery; the master answers a RegisterReply, with
// HTTP 200 when the server is listed and another status (and Error, Code)
// when it is not.

// Paths of a master's HTTP endpoints.
const (
	RegisterPath = "/register"
	ListPath     = "/servers.json"
)

// MaxRegisterBytes is the largest RegisterRequest body a master reads.
const MaxRegisterBytes = 4 << 10

// MaxRegionLen is the longest region (sv_region) listed, bytes.
const MaxRegionLen = 32

// RegisterRequest is the body of POST /register: what a game server claims.
// The master trusts none of it but the port (and Host once it resolves to
// the request's own address): what it lists comes from the server's
// /status, fetched from the master at the request's source address.
type RegisterRequest struct {
	// Port is the server's HTTP port (the one serving /, /ws and /status),
	// 1..65535: the master fetches http://SOURCE-IP:Port/status.
	Port int `json:"port"`
	// Host, when set, is a DNS name (or IP) to list instead of the source
	// address; it must resolve to the source address, or the register is
	// refused (CodeHost).
	Host string `json:"host,omitempty"`
	// Region is the host's country or region (sv_region), shown as given
	// (cleaned, at most MaxRegionLen bytes); "" for none.
	Region string `json:"region,omitempty"`
}

// RegisterReply is the body of every answer to POST /register.
type RegisterReply struct {
	// Addr is HOST:PORT the server is (or would be) listed under.
	Addr string `json:"addr,omitempty"`
	// EverySec is how often to register, seconds (RegisterEvery).
	EverySec int `json:"every_s,omitempty"`
	// Entry is the server as listed (on 200).
	Entry *Entry `json:"entry,omitempty"`
	// Error says why the server is not listed, in words; Code names the
	// kind (Code* constants).
	Error string `json:"error,omitempty"`
	Code  string `json:"code,omitempty"`
}

// Codes of a refused register (RegisterReply.Code).
const (
	// CodeBadRequest: the body is not a RegisterRequest or a value is out
	// of range (HTTP 400).
	CodeBadRequest = "bad_request"
	// CodeHost: Host does not resolve to the request's address (HTTP 400).
	CodeHost = "host_mismatch"
	// CodeUnreachable: the master could not fetch the server's /status
	// from outside (HTTP 422): usually a port that is not forwarded.
	CodeUnreachable = "unreachable"
	// CodeRate: too many registers from this address (HTTP 429, with
	// Retry-After); nothing was checked.
	CodeRate = "rate_limited"
	// CodePerAddr: this address already has MaxPerAddr servers listed
	// (HTTP 429).
	CodePerAddr = "too_many_servers"
	// CodeFull: the list holds MaxServers, or too many checks run at
	// once (HTTP 503).
	CodeFull = "full"
)
