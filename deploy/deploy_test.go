package deploy

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"tickshot/server"
)

// nonrootUID is distroless's nonroot user, the image's USER.
const nonrootUID = 65532

// docs decodes every YAML document of path (strictly: duplicate keys and
// tabs are errors, as kubectl's parser has them).
func docs(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	var out []map[string]any
	for {
		var d map[string]any
		err := dec.Decode(&d)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("%s: document %d: %v", path, len(out)+1, err)
		}
		if d != nil {
			out = append(out, d)
		}
	}
}

// get walks m by keys (strings for maps, ints for lists); nil if absent.
func get(m any, keys ...any) any {
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			mm, ok := m.(map[string]any)
			if !ok {
				return nil
			}
			m = mm[k]
		case int:
			l, ok := m.([]any)
			if !ok || k >= len(l) {
				return nil
			}
			m = l[k]
		}
	}
	return m
}

// serverPort is the server's default listen port (server.DefaultAddr).
func serverPort(t *testing.T) string {
	_, port, err := net.SplitHostPort(server.DefaultAddr)
	if err != nil {
		t.Fatal(err)
	}
	return port
}

// TestManifestsParse: every YAML file under deploy/ is valid YAML whose
// documents name an apiVersion, a kind and a metadata.name (or a
// metadata.generateName, for one created anew each time, as
// deploy/agones/allocation.yaml), as kubectl needs.
func TestManifestsParse(t *testing.T) {
	var files []string
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no manifests under deploy/")
	}
	for _, f := range files {
		ds := docs(t, f)
		if len(ds) == 0 {
			t.Errorf("%s: no documents", f)
		}
		for i, d := range ds {
			for _, k := range [][]any{{"apiVersion"}, {"kind"}, {"metadata", "name"}} {
				if s, _ := get(d, k...).(string); s == "" {
					if g, _ := get(d, "metadata", "generateName").(string); k[0] == "metadata" && g != "" {
						continue
					}
					t.Errorf("%s: document %d has no %v", f, i+1, k)
				}
			}
		}
	}
}

// TestKubernetesDeployment: deploy/k8s/deployment.yaml runs the image as
// its non-root user without privileges, probes /status on the server's
// port, requests resources, and its Service reaches the pods on that port
// keeping the players' addresses.
func TestKubernetesDeployment(t *testing.T) {
	port := serverPort(t)
	var dep, svc map[string]any
	for _, d := range docs(t, "k8s/deployment.yaml") {
		switch d["kind"] {
		case "Deployment":
			dep = d
		case "Service":
			svc = d
		}
	}
	if dep == nil || svc == nil {
		t.Fatalf("want a Deployment and a Service, got %v and %v", dep != nil, svc != nil)
	}
	pod := get(dep, "spec", "template", "spec")
	labels, _ := get(dep, "spec", "template", "metadata", "labels").(map[string]any)
	for k, v := range get(dep, "spec", "selector", "matchLabels").(map[string]any) {
		if labels[k] != v {
			t.Errorf("the Deployment's selector %s=%v does not match its pods' labels %v", k, v, labels)
		}
	}
	if get(pod, "securityContext", "runAsNonRoot") != true || get(pod, "securityContext", "runAsUser") != nonrootUID {
		t.Errorf("pod securityContext: want runAsNonRoot true and runAsUser %d, got %v", nonrootUID, get(pod, "securityContext"))
	}
	c := get(pod, "containers", 0)
	if get(c, "securityContext", "allowPrivilegeEscalation") != false || get(c, "securityContext", "readOnlyRootFilesystem") != true ||
		get(c, "securityContext", "capabilities", "drop", 0) != "ALL" {
		t.Errorf("container securityContext: want no privilege escalation, a read-only root and every capability dropped, got %v", get(c, "securityContext"))
	}
	if p := get(c, "ports", 0, "containerPort"); p == nil || strings.TrimSpace(strings.ReplaceAll(yamlString(p), "\n", "")) != port {
		t.Errorf("containerPort %v, want the server's %s", p, port)
	}
	portName := get(c, "ports", 0, "name")
	if get(c, "readinessProbe", "httpGet", "path") != "/status" || get(c, "readinessProbe", "httpGet", "port") != portName {
		t.Errorf("readinessProbe: want httpGet /status on port %v, got %v", portName, get(c, "readinessProbe"))
	}
	// Liveness must notice a hung tick loop, whose /status still answers:
	// the healthcheck command, which wants the tick to advance.
	live := fmt.Sprint(get(c, "livenessProbe", "exec", "command"))
	if !strings.Contains(live, "/tickshot-server healthcheck") || !strings.Contains(live, "127.0.0.1:"+port+"/status") {
		t.Errorf("livenessProbe: want exec /tickshot-server healthcheck on 127.0.0.1:%s/status, got %v", port, get(c, "livenessProbe"))
	}
	if to, ok := get(c, "livenessProbe", "timeoutSeconds").(int); !ok || to < 3 {
		t.Errorf("livenessProbe timeoutSeconds %v: want 3 or more, the healthcheck's two reads take up to 2.6 s", get(c, "livenessProbe", "timeoutSeconds"))
	}
	for _, r := range []string{"cpu", "memory"} {
		if get(c, "resources", "requests", r) == nil {
			t.Errorf("no resources.requests.%s", r)
		}
	}
	if get(c, "resources", "limits", "cpu") != nil {
		t.Errorf("a CPU limit throttles ticks; want none, got %v", get(c, "resources", "limits", "cpu"))
	}
	for k, v := range get(svc, "spec", "selector").(map[string]any) {
		if labels[k] != v {
			t.Errorf("the Service's selector %s=%v does not match the pods' labels %v", k, v, labels)
		}
	}
	if get(svc, "spec", "ports", 0, "targetPort") != portName || yamlString(get(svc, "spec", "ports", 0, "port")) != port+"\n" {
		t.Errorf("Service port: want %s to the container's %v, got %v", port, portName, get(svc, "spec", "ports"))
	}
	if get(svc, "spec", "externalTrafficPolicy") != "Local" {
		t.Errorf("Service externalTrafficPolicy %v: want Local, so the server sees players' addresses (sv_maxplayers_per_ip)", get(svc, "spec", "externalTrafficPolicy"))
	}
}

// yamlString is v as YAML text ("27015\n" for the number 27015).
func yamlString(v any) string {
	b, _ := yaml.Marshal(v)
	return string(b)
}

// TestDockerfile: the image exposes the server's port, runs as the
// non-root user, checks health with the healthcheck subcommand on that
// port (exec form: distroless has no shell) and starts a dedicated server.
func TestDockerfile(t *testing.T) {
	port := serverPort(t)
	b, err := os.ReadFile("../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(b), "\\\n", " ")
	lines := map[string][]string{}
	var froms []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		instr, rest, _ := strings.Cut(l, " ")
		lines[strings.ToUpper(instr)] = append(lines[strings.ToUpper(instr)], strings.Join(strings.Fields(rest), " "))
		if strings.EqualFold(instr, "FROM") {
			froms = append(froms, rest)
		}
	}
	want := map[string]string{
		"USER": "65532:65532",
	}
	for instr, w := range want {
		if got := lines[instr]; len(got) != 1 || got[0] != w {
			t.Errorf("%s %v, want %s", instr, got, w)
		}
	}
	// TCP for the page, /ws and /status; UDP, the same number, for the
	// WebRTC datagram path (issue 19).
	if got := lines["EXPOSE"]; !slices.Equal(got, []string{port + "/tcp", port + "/udp"}) {
		t.Errorf("EXPOSE %v, want %s/tcp and %s/udp", got, port, port)
	}
	if len(froms) != 2 || !strings.HasPrefix(froms[0], "golang:") || !strings.Contains(froms[1], "distroless/static") {
		t.Errorf("want a golang build stage and a distroless/static run stage, got FROM %v", froms)
	}
	hc := lines["HEALTHCHECK"]
	if len(hc) != 1 || !strings.Contains(hc[0], `CMD ["/tickshot-server", "healthcheck", "--url", "http://127.0.0.1:`+port+`/status"`) {
		t.Errorf("HEALTHCHECK %v: want the exec form of /tickshot-server healthcheck on port %s", hc, port)
	}
	ep := lines["ENTRYPOINT"]
	if len(ep) != 1 || !strings.HasPrefix(ep[0], `["/tickshot-server", "server", "--addr", ":`+port+`"`) {
		t.Errorf("ENTRYPOINT %v: want /tickshot-server server --addr :%s (exec form)", ep, port)
	}
	if run := strings.Join(lines["RUN"], "\n"); !strings.Contains(run, "make wasm") || !strings.Contains(run, "CGO_ENABLED=0 go build -trimpath -tags headless") {
		t.Errorf("RUN %v: want the browser client built (make wasm) and the static headless server", lines["RUN"])
	}
}
