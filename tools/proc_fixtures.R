# Writes the pROC anchors of tests/test_scored_proc.py: pROC's own aSAH data set (Turck et al. 2010) as CSV, and
# pROC's DeLong AUC, variance, interval and paired test on it and on random scores with ties, as JSON.
# Run: Rscript tools/proc_fixtures.R tests/data/proc   (R and pROC from Debian: r-base-core r-cran-proc)
suppressMessages(library(pROC))
args <- commandArgs(trailingOnly = TRUE)
out <- if (length(args)) args[1] else "tests/data/proc"
num <- function(x) sprintf("%.17g", x)
data(aSAH)
asah <- data.frame(outcome = aSAH$outcome, gender = aSAH$gender, age = aSAH$age,
                   wfns = as.integer(as.character(aSAH$wfns)), s100b = aSAH$s100b, ndka = aSAH$ndka)
write.csv(asah, file.path(out, "asah.csv"), row.names = FALSE, quote = FALSE)
one <- function(name, y, s, conf) {
  r <- roc(y, s, direction = "<", levels = c("Good", "Poor"), quiet = TRUE)
  ci <- ci.auc(r, method = "delong", conf.level = conf)
  sprintf('{"case": "%s", "conf": %s, "auc": %s, "var": %s, "low": %s, "high": %s}', name, num(conf),
          num(as.numeric(r$auc)), num(var(r, method = "delong")), num(ci[1]), num(ci[3]))
}
two <- function(name, y, a, b, conf) {
  ra <- roc(y, a, direction = "<", levels = c("Good", "Poor"), quiet = TRUE)
  rb <- roc(y, b, direction = "<", levels = c("Good", "Poor"), quiet = TRUE)
  t <- roc.test(ra, rb, method = "delong", paired = TRUE, conf.level = conf)
  sprintf(paste0('{"case": "%s", "conf": %s, "auc_a": %s, "auc_b": %s, "z": %s, "p": %s, "low": %s, ',
                 '"high": %s}'), name, num(conf), num(t$estimate[1]), num(t$estimate[2]), num(t$statistic),
          num(t$p.value), num(t$conf.int[1]), num(t$conf.int[2]))
}
singles <- c(); pairs <- c(); random <- c()
for (col in c("s100b", "ndka", "wfns")) for (conf in c(0.95, 0.9)) singles <- c(singles, one(col, aSAH$outcome, asah[[col]], conf))
for (p in list(c("wfns", "s100b"), c("s100b", "ndka"), c("wfns", "ndka")))
  for (conf in c(0.95, 0.9)) pairs <- c(pairs, two(paste(p, collapse = "-"), aSAH$outcome, asah[[p[1]]], asah[[p[2]]], conf))
set.seed(20261126)
for (i in 1:12) {
  n <- sample(c(20, 60, 200, 1000), 1)
  y <- factor(ifelse(runif(n) < runif(1, 0.1, 0.6), "Poor", "Good"), levels = c("Good", "Poor"))
  if (length(unique(y)) < 2) y[1:2] <- c("Good", "Poor")
  digits <- sample(c(0, 1, 2, 6), 1)
  a <- round(rnorm(n) + (y == "Poor") * runif(1, 0, 2), digits)
  b <- round(0.6 * a + rnorm(n) + (y == "Poor") * runif(1, 0, 1.5), digits)
  ys <- paste0('"', as.character(y), '"', collapse = ", ")
  random <- c(random, sprintf('{"gold": [%s], "a": [%s], "b": [%s], "single": %s, "pair": %s}', ys,
                              paste(num(a), collapse = ", "), paste(num(b), collapse = ", "),
                              one(paste0("random", i), y, a, 0.95), two(paste0("random", i), y, a, b, 0.95)))
}
writeLines(c("{", sprintf('"pROC": "%s",', as.character(packageVersion("pROC"))),
             sprintf('"R": "%s",', R.version.string),
             '"direction": "<: higher scores for Poor (the positive class)",',
             sprintf('"single": [%s],', paste(singles, collapse = ",\n")),
             sprintf('"paired": [%s],', paste(pairs, collapse = ",\n")),
             sprintf('"random": [%s]', paste(random, collapse = ",\n")), "}"),
           file.path(out, "anchors.json"))
