// The pod sandbox image's only binary (see images.sh); no dependencies.
module virtgate.io/test/node/pause

go 1.26.0
