# Tickshot dedicated server image (README "Run it in a container").
#
#   docker build -t tickshot .            (podman: podman build --format docker -t tickshot .)
#   docker run --rm -p 27015:27015 tickshot
#
# Stage 1 builds the browser client (make wasm: GOOS=js GOARCH=wasm, gzipped
# into assets/web/dist/, which package web embeds) and then the static
# headless server, exactly as `make server` does. Stage 2 is that one binary
# on distroless/static (no shell, no libc, no package manager) as the
# distroless "nonroot" user, uid/gid 65532. scripts/container-test.sh builds
# and runs the same thing without a container engine.

# The Go line of go.mod is 1.25; any newer toolchain builds it. Keep this the
# toolchain the browser client's wasm_exec.js must match (make wasm copies
# it from the same GOROOT).
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN make wasm
RUN CGO_ENABLED=0 go build -trimpath -tags headless -ldflags='-s -w' -o /out/tickshot-server .

FROM gcr.io/distroless/static-debian12:nonroot
LABEL org.opencontainers.image.title="tickshot-server" \
      org.opencontainers.image.description="Tickshot dedicated server: game websocket at /ws, /status JSON and the browser client on one port"
COPY --from=build /out/tickshot-server /tickshot-server
# Numeric, so that Kubernetes' runAsNonRoot can check it without /etc/passwd.
USER 65532:65532
# One TCP port: the game (/ws), /status and the browser client (/).
EXPOSE 27015/tcp
EXPOSE 27015/udp
# Distroless has no curl: the binary asks its own /status (exit 0 healthy,
# 1 not). OCI images drop HEALTHCHECK; podman/buildah keep it with
# --format docker.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["/tickshot-server", "healthcheck", "--url", "http://127.0.0.1:27015/status", "--timeout", "1s"]
# SIGTERM (docker stop, Kubernetes) tells every player "server shutting
# down" and exits 0 within about 4 s, inside docker stop's default 10 s.
STOPSIGNAL SIGTERM
# A dedicated server on :27015. No LAN announcement: multicast does not
# leave a container's network (run with --network host and --lan=true to
# announce). Arguments after the image name are more server flags, which
# override these (the last of a flag wins): docker run tickshot --bots 0 --maxplayers 8
ENTRYPOINT ["/tickshot-server", "server", "--addr", ":27015", "--lan=false"]
CMD ["--bots", "4"]
