// The image tool: how an image of a prompt result reaches the user's agent. VS Code 1.139 attaches image
// files to a chat only from file: and http(s) (see core/render/agent-request.ts), but a tool result may carry image
// data, which the agent hands to its model as a picture. The hand-off names each image with a handle
// (`r3/0-1`) and attaches this tool; the agent calls it with the handle. Only images of results stored in
// this window are served, and only by a handle of the exact form; nothing is read from disk or network.
// agent.e2e.js hands a result with an image to the tests' fake agent, which receives it through this tool.
import * as vscode from 'vscode';
import { IMAGE_TOOL, parseImageHandle } from '../core/render/agent-request';
import { formatBytes } from '../core/render/content';
import { partAt } from '../resources';
import type { ResultStore } from '../core/run/records/result-store';

interface ImageInput {
  image?: unknown;
}

export function registerImageTool(results: ResultStore): vscode.Disposable {
  const find = (input: ImageInput) => {
    const handle = parseImageHandle(input.image);
    const stored = handle && results.get(handle.resultId);
    const part = stored && handle ? partAt(stored.transcript, handle.index) : undefined;
    return part?.kind === 'image' ? part : undefined;
  };
  return vscode.lm.registerTool<ImageInput>(IMAGE_TOOL.name, {
    prepareInvocation(options) {
      const part = find(options.input);
      // Read-only and our own data: no confirmation, only a line saying what is read.
      return {
        invocationMessage: part
          ? vscode.l10n.t('Reading image {0} of the MCP prompt result', part.fileName)
          : vscode.l10n.t('Reading an image of an MCP prompt result'),
      };
    },
    invoke(options) {
      const part = find(options.input);
      if (!part) {
        throw new Error(
          vscode.l10n.t(
            'No image "{0}" among the MCP prompt results of this window (expected a handle such as r3/0-1 from the request).',
            String(options.input.image).slice(0, 40),
          ),
        );
      }
      return new vscode.LanguageModelToolResult([
        new vscode.LanguageModelTextPart(
          vscode.l10n.t(
            'Image {0} ({1}, {2}) from the MCP prompt result:',
            part.fileName,
            part.mimeType,
            formatBytes(part.bytes),
          ),
        ),
        vscode.LanguageModelDataPart.image(Buffer.from(part.data, 'base64'), part.mimeType),
      ]);
    },
  });
}
