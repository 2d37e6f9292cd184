// node-polyglot's `object.entries` for browsers that have it: the es-shim pulls ~5 KB (gzipped)
// of es-abstract helpers into /login for a function every supported browser ships.
module.exports = Object.entries;
