# Chancery, built from source. Templates, presets, the map and the migrations are embedded in
# the binary; only the configuration and the database live outside it.
FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked --bin chancery

FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates tzdata \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/target/release/chancery /usr/local/bin/chancery
VOLUME ["/var/lib/chancery"]
ENTRYPOINT ["/usr/local/bin/chancery"]
CMD ["serve", "--config", "/etc/chancery/chancery.toml"]
