// Package deploy holds no code: it is the home of the deployment files
// (the Kubernetes manifests under k8s/, the repository's Dockerfile beside
// them at the root) and of the test that keeps them parseable and in step
// with the server: the port, the user, the health endpoint.
package deploy
