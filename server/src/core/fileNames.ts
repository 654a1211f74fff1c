/** File names every part of the product recognises the same way. */

/**
 * A Dockerfile or Podman Containerfile by its name: `Dockerfile`, `Dockerfile.flink`, `flink.dockerfile`,
 * `Containerfile`, `Containerfile.job` (any case). `name` is the base name.
 */
export function isDockerfileName(name: string): boolean {
  const lower = name.toLowerCase();
  return (
    /^(dockerfile|containerfile)(\..*)?$/.test(lower) ||
    lower.endsWith(".dockerfile") ||
    lower.endsWith(".containerfile")
  );
}
