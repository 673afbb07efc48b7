package deploy

import (
	"fmt"
	"net"
	"strings"
	"testing"

	"tickshot/net/master"
)

// TestKubernetesMaster: deploy/k8s/master.yaml runs the image's
// tickshot-server as a master (one replica: the list is in memory) on
// master.DefaultAddr's port, as the non-root user without privileges,
// probes /servers.json, and its Service keeps the registering servers'
// addresses (externalTrafficPolicy Local), which the master lists and
// checks.
func TestKubernetesMaster(t *testing.T) {
	_, port, err := net.SplitHostPort(master.DefaultAddr)
	if err != nil {
		t.Fatal(err)
	}
	var dep, svc map[string]any
	for _, d := range docs(t, "k8s/master.yaml") {
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
	if get(dep, "spec", "replicas") != 1 {
		t.Errorf("replicas %v: want 1 (the list lives in one master's memory)", get(dep, "spec", "replicas"))
	}
	pod := get(dep, "spec", "template", "spec")
	labels, _ := get(dep, "spec", "template", "metadata", "labels").(map[string]any)
	if get(pod, "securityContext", "runAsNonRoot") != true || get(pod, "securityContext", "runAsUser") != nonrootUID {
		t.Errorf("pod securityContext %v: want runAsNonRoot, user %d", get(pod, "securityContext"), nonrootUID)
	}
	c := get(pod, "containers", 0)
	if cmd := fmt.Sprint(get(c, "command")); cmd != "[/tickshot-server master --addr :"+port+"]" {
		t.Errorf("command %s: want /tickshot-server master --addr :%s", cmd, port)
	}
	if get(c, "securityContext", "allowPrivilegeEscalation") != false || get(c, "securityContext", "readOnlyRootFilesystem") != true {
		t.Errorf("container securityContext %v", get(c, "securityContext"))
	}
	if p := strings.TrimSpace(yamlString(get(c, "ports", 0, "containerPort"))); p != port {
		t.Errorf("containerPort %s, want %s", p, port)
	}
	portName := get(c, "ports", 0, "name")
	for _, probe := range []string{"readinessProbe", "livenessProbe"} {
		if get(c, probe, "httpGet", "path") != master.ListPath || get(c, probe, "httpGet", "port") != portName {
			t.Errorf("%s %v: want httpGet %s on port %v", probe, get(c, probe), master.ListPath, portName)
		}
	}
	for k, v := range get(svc, "spec", "selector").(map[string]any) {
		if labels[k] != v {
			t.Errorf("the Service's selector %s=%v does not match the pods' labels %v", k, v, labels)
		}
	}
	if get(svc, "spec", "ports", 0, "targetPort") != portName || strings.TrimSpace(yamlString(get(svc, "spec", "ports", 0, "port"))) != port {
		t.Errorf("Service ports %v: want %s to the container's %v", get(svc, "spec", "ports"), port, portName)
	}
	if get(svc, "spec", "externalTrafficPolicy") != "Local" {
		t.Errorf("externalTrafficPolicy %v: want Local, so the master sees (and checks) each registering server's own address", get(svc, "spec", "externalTrafficPolicy"))
	}
}
