-- Drives the language server from headless Neovim 0.7 (vim.lsp.start_client): opens a file, waits for the
-- diagnostics the test expects, asks for the code actions of one of them, applies the chosen one, and waits for
-- the diagnostics the server publishes for the edited text. What it saw goes to stdout, one JSON value per line,
-- for the test to check. Exit code 0 once it got through, 1 when a step did not happen in time or failed.
-- Input (environment): BFL_SERVER (JSON command), BFL_ROOT, BFL_FILE, BFL_EXPECT / BFL_EXPECT_AFTER (the codes,
-- sorted, comma-separated), BFL_ACTION_CODE (the diagnostic to fix), BFL_ACTION (part of the action's title).
local env = vim.env
local wait_ms = 10000

local function emit(tag, value)
  io.stdout:write(tag .. ' ' .. vim.fn.json_encode(value) .. '\n')
end

-- Neovim 0.7 keeps only some LSP fields in user_data.lsp; range and severity are the diagnostic's own.
local function diagnostics(buf)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local lsp = vim.tbl_extend('force', d.user_data.lsp, {
      range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } },
      severity = d.severity,
      message = d.message,
      source = d.source,
    })
    table.insert(list, { code = lsp.code, line = d.lnum + 1, col = d.col + 1, severity = d.severity, lsp = lsp })
  end
  table.sort(list, function(a, b) return a.line < b.line or (a.line == b.line and a.code < b.code) end)
  return list
end

local function codes(buf)
  local list = vim.tbl_map(function(d) return d.code end, diagnostics(buf))
  table.sort(list)
  return table.concat(list, ',')
end

local function report(tag, buf)
  emit(tag, vim.tbl_map(function(d) return { code = d.code, line = d.line, col = d.col, severity = d.severity } end,
    diagnostics(buf)))
end

local function main()
  local file = env.BFL_FILE
  local uri = vim.uri_from_fname(file)
  local publications = 0
  local publish = vim.lsp.handlers['textDocument/publishDiagnostics']
  local client_id = vim.lsp.start_client({
    name = 'beam-flink-lint',
    cmd = vim.fn.json_decode(env.BFL_SERVER),
    root_dir = env.BFL_ROOT,
    workspace_folders = { { uri = vim.uri_from_fname(env.BFL_ROOT), name = 'workspace' } },
    handlers = {
      ['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
        publish(err, result, ctx, config)
        if result and result.uri == uri then publications = publications + 1 end
      end,
    },
  })
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].filetype = 'yaml'
  vim.lsp.buf_attach_client(buf, client_id)

  -- The first publication can come before the workspace folder is read; wait for the whole project's answer.
  local got = vim.wait(wait_ms, function() return codes(buf) == env.BFL_EXPECT end, 20)
  report('BEFORE', buf)
  if not got then return 'diagnostics ' .. codes(buf) end

  local target
  for _, d in ipairs(diagnostics(buf)) do
    if d.code == env.BFL_ACTION_CODE then target = d.lsp end
  end
  local responses = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', {
    textDocument = { uri = uri },
    range = target.range,
    context = { diagnostics = { target } },
  }, wait_ms)
  local titles, chosen = {}, nil
  for _, response in pairs(responses or {}) do
    for _, action in ipairs(response.result or {}) do
      table.insert(titles, action.title)
      if not chosen and action.edit and action.title:find(env.BFL_ACTION, 1, true) then chosen = action end
    end
  end
  emit('ACTIONS', titles)
  if not chosen then return 'no action titled ' .. env.BFL_ACTION end

  local before = publications
  vim.lsp.util.apply_workspace_edit(chosen.edit, 'utf-16')
  got = vim.wait(wait_ms, function() return publications > before and codes(buf) == env.BFL_EXPECT_AFTER end, 20)
  report('AFTER', buf)
  emit('TEXT', table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n') .. '\n')
  vim.lsp.stop_client(client_id)
  if not got then return 'diagnostics after the action ' .. codes(buf) end
end

local ok, failure = pcall(main)
if ok and failure == nil then
  vim.cmd('qa!')
else
  emit('FAILED', tostring(failure))
  vim.cmd('cquit! 1')
end
