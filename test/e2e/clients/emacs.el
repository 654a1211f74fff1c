;;; emacs.el --- drives the language server from Emacs 28 + eglot 1.9 in batch mode  -*- lexical-binding: t -*-
;; Opens a file, waits for the diagnostics the test expects (through Flymake), asks eglot for the code actions of
;; one of them, applies the chosen one, and waits for the diagnostics the server publishes for the edited text.
;; What it saw goes to stdout, one JSON value per line, for the test to check.  Exit code 0 once it got through,
;; 1 when a step did not happen in time or failed, 3 when eglot is not installed.
;; Input (environment): the same variables as neovim.lua.
(require 'package)
(package-initialize)
(unless (require 'eglot nil t)
  (princ "FAILED \"eglot is not installed (Debian package elpa-eglot)\"\n")
  (kill-emacs 3))
(require 'flymake)
(require 'json)

(define-derived-mode bfl-yaml-mode prog-mode "BFL-YAML")
(setq eglot-sync-connect t eglot-autoshutdown nil eglot-events-buffer-size 0)
(defconst bfl-wait-seconds 10)

(defun bfl-emit (tag value)
  (princ (format "%s %s\n" tag (json-encode value))))

(defun bfl-wait (predicate)
  "Process server output until PREDICATE holds or the time is up; return PREDICATE's last value."
  (let ((deadline (+ (float-time) bfl-wait-seconds)))
    (while (and (not (funcall predicate)) (< (float-time) deadline))
      (accept-process-output nil 0.02))
    (funcall predicate)))

(defun bfl-lsp (diagnostic)
  "The LSP diagnostic eglot made DIAGNOSTIC from."
  (cdr (assoc 'eglot-lsp-diag (flymake-diagnostic-data diagnostic))))

(defun bfl-diagnostics ()
  "The diagnostics of the buffer as (CODE LINE COL SEVERITY LSP), by position."
  (sort (mapcar (lambda (d)
                  (let* ((lsp (bfl-lsp d))
                         (start (plist-get (plist-get lsp :range) :start)))
                    (list (plist-get lsp :code) (1+ (plist-get start :line)) (1+ (plist-get start :character))
                          (plist-get lsp :severity) lsp)))
                (flymake-diagnostics))
        (lambda (a b) (or (< (nth 1 a) (nth 1 b))
                          (and (= (nth 1 a) (nth 1 b)) (string< (car a) (car b)))))))

(defun bfl-codes ()
  (mapconcat #'identity (sort (mapcar #'car (bfl-diagnostics)) #'string<) ","))

(defun bfl-report (tag)
  (bfl-emit tag (vconcat (mapcar (lambda (d) `((code . ,(nth 0 d)) (line . ,(nth 1 d)) (col . ,(nth 2 d))
                                              (severity . ,(nth 3 d))))
                                 (bfl-diagnostics)))))

(defvar bfl-publications 0 "How many times the server published diagnostics for the buffer.")

(defun bfl-main ()
  "Run the steps; nil when all went through, else what went wrong."
  (let ((root (file-name-as-directory (getenv "BFL_ROOT"))))
    (find-file (getenv "BFL_FILE"))
    (bfl-yaml-mode)
    ;; eglot 1.9 wants the managed modes as a list.
    (eglot '(bfl-yaml-mode) `(transient . ,root) 'eglot-lsp-server
           (append (json-read-from-string (getenv "BFL_SERVER")) nil) "yaml")
    (advice-add 'eglot--report-to-flymake :after (lambda (&rest _) (setq bfl-publications (1+ bfl-publications))))
    (let ((got (bfl-wait (lambda () (equal (bfl-codes) (getenv "BFL_EXPECT"))))))
      (bfl-report "BEFORE")
      (if (not got)
          (concat "diagnostics " (bfl-codes))
        (let* ((target (seq-find (lambda (d) (equal (car d) (getenv "BFL_ACTION_CODE"))) (bfl-diagnostics)))
               (range (plist-get (nth 4 target) :range))
               (actions (eglot-code-actions (eglot--lsp-position-to-point (plist-get range :start))
                                            (eglot--lsp-position-to-point (plist-get range :end))))
               (chosen (seq-find (lambda (a) (and (plist-get a :edit)
                                                  (string-search (getenv "BFL_ACTION") (plist-get a :title))))
                                 actions)))
          (bfl-emit "ACTIONS" (vconcat (mapcar (lambda (a) (plist-get a :title)) actions)))
          (if (not chosen)
              (concat "no action titled " (getenv "BFL_ACTION"))
            (let ((before bfl-publications))
              (eglot--apply-workspace-edit (plist-get chosen :edit))
              ;; eglot sends the change from an idle timer, and batch Emacs is never idle.
              (eglot--signal-textDocument/didChange)
              (setq got (bfl-wait (lambda () (and (> bfl-publications before)
                                                  (equal (bfl-codes) (getenv "BFL_EXPECT_AFTER"))))))
              (bfl-report "AFTER")
              (bfl-emit "TEXT" (buffer-substring-no-properties (point-min) (point-max)))
              (unless got (concat "diagnostics after the action " (bfl-codes))))))))))

(let ((failure (condition-case err (bfl-main) (error (error-message-string err)))))
  (set-buffer-modified-p nil)
  (when failure (bfl-emit "FAILED" failure))
  (kill-emacs (if failure 1 0)))
