// Go test files (`*_test.go`) are never part of a built program: the go
// tool compiles them only for `go test`, so the routes they register and the
// calls they make are no interface of the service.

/** Whether a path is a Go test file (`x_test.go`). */
export function isGoTestFile(path: string): boolean {
  return path.endsWith("_test.go");
}

/** The Go files of a list that a build includes (test files left out). */
export function builtGoFiles<T extends { path: string }>(files: T[]): T[] {
  return files.filter((f) => f.path.endsWith(".go") && !isGoTestFile(f.path));
}
