// A server under the app's supervisor (lib/server/supervisor.ts), as small as a server can be: each
// process answers every request after 20 ms and says its pid when it listens. For the supervisor's test.
import cluster from "node:cluster";
import http from "node:http";
import { supervise } from "@/lib/server/supervisor";

const port = Number(process.argv[2]);
if (cluster.isPrimary) supervise({ processes: 1, port, say: (line) => console.error(line), firstDelayMs: 200 });
else
  http
    .createServer((_req, res) => void setTimeout(() => res.end("ok"), 20))
    .listen(port, () => console.log(`listening ${process.pid}`));
