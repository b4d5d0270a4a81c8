# Writes the pROC anchors of tests/test_delong_unpaired.py: pROC's unpaired DeLong test,
# roc.test(roc1, roc2, paired = FALSE, method = "delong"), its statistic D, degrees of freedom and p-values (two-sided,
# "less", "greater") and the two AUCs, on pROC's aSAH data split by gender (s100b and wfns against outcome; the data
# are tests/data/proc/asah.csv, written by tools/proc_fixtures.R) and on random binary samples with ties, as JSON.
# Run: Rscript tools/proc_unpaired_fixtures.R tests/data/proc   (R and pROC from Debian: r-base-core r-cran-proc)
suppressMessages(library(pROC))
args <- commandArgs(trailingOnly = TRUE)
out <- if (length(args)) args[1] else "tests/data/proc"
num <- function(x) ifelse(as.numeric(sprintf("%.15g", x)) == x, sprintf("%.15g", x), sprintf("%.17g", x))  # exact
lv <- c("Good", "Poor")
test <- function(name, ya, sa, yb, sb) {
  ra <- roc(ya, sa, direction = "<", levels = lv, quiet = TRUE)
  rb <- roc(yb, sb, direction = "<", levels = lv, quiet = TRUE)
  p <- sapply(c("two.sided", "less", "greater"),
              function(alt) roc.test(ra, rb, method = "delong", paired = FALSE, alternative = alt)$p.value)
  t <- roc.test(ra, rb, method = "delong", paired = FALSE)
  sprintf(paste0('"case": "%s", "auc_a": %s, "auc_b": %s, "statistic": %s, "df": %s, "p_two_sided": %s, ',
                 '"p_less": %s, "p_greater": %s'), name, num(as.numeric(ra$auc)), num(as.numeric(rb$auc)),
          num(t$statistic), num(t$parameter), num(p[1]), num(p[2]), num(p[3]))
}
data(aSAH)
asah <- list()
for (col in c("s100b", "wfns")) {
  s <- as.numeric(as.character(aSAH[[col]]))
  m <- aSAH$gender == "Male"; f <- aSAH$gender == "Female"
  asah <- c(asah, sprintf('{"marker": "%s", "a": "Male", "b": "Female", %s}', col,
                          test(paste0(col, "-gender"), aSAH$outcome[m], s[m], aSAH$outcome[f], s[f])))
}
sample_of <- function(n, shift, digits) {
  y <- factor(ifelse(runif(n) < runif(1, 0.15, 0.6), "Poor", "Good"), levels = lv)
  y[1:4] <- c("Good", "Good", "Poor", "Poor")  # at least two of each: DeLong's variance exists
  s <- round(rnorm(n) + (y == "Poor") * shift, digits)
  list(y = y, s = s)
}
set.seed(20261128)
random <- c()
for (i in 1:22) {
  na <- sample(c(8, 30, 120, 500, 1000), 1); nb <- sample(c(8, 30, 120, 500, 1000), 1)
  digits <- sample(c(0, 1, 2, 6), 1)
  a <- sample_of(na, runif(1, 0, 2), digits); b <- sample_of(nb, runif(1, 0, 2), digits)
  ys <- function(y) paste0('"', as.character(y), '"', collapse = ", ")
  random <- c(random, sprintf('{"gold_a": [%s], "a": [%s], "gold_b": [%s], "b": [%s], %s}', ys(a$y),
                              paste(num(a$s), collapse = ", "), ys(b$y), paste(num(b$s), collapse = ", "),
                              test(paste0("random", i), a$y, a$s, b$y, b$s)))
}
# one sample without variance (classes separated: AUC 1; every score tied: AUC ½): V = the other's, df = its n − 1
ys <- function(y) paste0('"', as.character(y), '"', collapse = ", ")
for (kind in c("separated", "tied")) {
  y <- factor(rep(c("Good", "Poor"), each = 6), levels = lv)
  s <- if (kind == "separated") as.numeric(y == "Poor") else rep(0.5, 12)
  b <- sample_of(40, 1, 1)
  random <- c(random, sprintf('{"gold_a": [%s], "a": [%s], "gold_b": [%s], "b": [%s], %s}', ys(y),
                              paste(num(s), collapse = ", "), ys(b$y), paste(num(b$s), collapse = ", "),
                              test(kind, y, s, b$y, b$s)))
}
writeLines(c("{", sprintf('"pROC": "%s",', as.character(packageVersion("pROC"))),
             sprintf('"R": "%s",', R.version.string),
             '"direction": "<: higher scores for Poor (the positive class)",',
             '"test": "roc.test(roc_a, roc_b, method = \\"delong\\", paired = FALSE, alternative = ...)",',
             sprintf('"asah": [%s],', paste(asah, collapse = ",\n")),
             sprintf('"random": [%s]', paste(random, collapse = ",\n")), "}"),
           file.path(out, "unpaired.json"))
