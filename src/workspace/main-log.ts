// The extension's own log ("MCP Prompts" in the Output view), for what belongs to no one server.
// Created on first use: most windows never write to it.
import * as vscode from 'vscode';

let channel: vscode.LogOutputChannel | undefined;

export function mainLog(): vscode.LogOutputChannel {
  return (channel ??= vscode.window.createOutputChannel('MCP Prompts', { log: true }));
}
