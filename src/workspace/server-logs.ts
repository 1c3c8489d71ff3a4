// One log output channel per server ("MCP Prompts: <name>"), created on first use; the core writes to
// it through a LogSink, and the trace level of the channel decides whether JSON-RPC traffic is traced.
import * as vscode from 'vscode';
import type { ServerDefinition } from '../core/config/config';
import type { LogSink } from '../core/log';

export class ServerLogs implements vscode.Disposable {
  private readonly channels = new Map<string, vscode.LogOutputChannel>();

  channel(server: ServerDefinition): vscode.LogOutputChannel {
    let channel = this.channels.get(server.id);
    if (!channel) {
      channel = vscode.window.createOutputChannel(vscode.l10n.t('MCP Prompts: {0}', server.name), { log: true });
      this.channels.set(server.id, channel);
    }
    return channel;
  }

  /** The core's view of a server's channel (created only when something is written). */
  sink(def: ServerDefinition): LogSink {
    const channel = () => this.channel(def);
    return {
      trace: m => channel().trace(m),
      info: m => channel().info(m),
      warn: m => channel().warn(m),
      error: m => channel().error(m),
      traceEnabled: () => channel().logLevel === vscode.LogLevel.Trace,
    };
  }

  dispose(): void {
    for (const c of this.channels.values()) c.dispose();
  }
}
