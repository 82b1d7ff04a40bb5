// The reference application (server.ts) on node:http, through the library's
// node adapter: `serve()` converts each IncomingMessage to a Request
// (streaming its body) and writes the Response back with backpressure.
//
//   deno run --allow-net --allow-read --allow-env=PORT,MODEL_PATH,POLICY_PATH,__MINIMATCH_TESTING_PLATFORM__ examples/node.ts
//   bun run examples/node.ts
//   Node: bundle it first, as tests/examples/node_test.ts does for Node 20
//   (esbuild --bundle --platform=node --format=esm examples/node.ts)
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { serve } from "../src/adapters/node/mod.ts";
import { CachedFileEnforcerProvider } from "../src/guard/mod.ts";
import {
  addressInUseMessage,
  isAddressInUse,
  listeningMessage,
} from "./_listening.ts";
import { createApp } from "./server.ts";

// Node before 24.2 has no import.meta.main.
const isMain = import.meta.main ??
  (process.argv[1] !== undefined &&
    pathToFileURL(process.argv[1]).href === import.meta.url);

if (isMain) {
  const provider = await CachedFileEnforcerProvider.open({
    modelPath: process.env.MODEL_PATH ||
      fileURLToPath(new URL("./model.conf", import.meta.url)),
    policyPath: process.env.POLICY_PATH ||
      fileURLToPath(new URL("./policy.csv", import.meta.url)),
  });
  const port = Number(process.env.PORT || 8002);
  const server = await serve(createApp(provider), { port }).catch(
    async (error) => {
      await provider.close();
      // deno-lint-ignore no-console
      console.error(isAddressInUse(error) ? addressInUseMessage(port) : error);
      process.exit(1);
    },
  );
  // deno-lint-ignore no-console
  console.log(listeningMessage(server.addr.hostname, server.addr.port));
  const stop = async (): Promise<void> => {
    await server.close();
    await provider.close();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}
