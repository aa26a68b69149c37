/*
 * jail.c -- the grader's supervisor: runs one command under limits and makes sure
 * nothing it started outlives it. Built by tests/grade/sandbox.sh; trusted code.
 *
 *   jail [-u UID] [-t SECONDS] [-c CPU_S] [-m MB] [-p NPROC] [-f MB] [-n NOFILE]
 *        [-x FD]... -- COMMAND ARG...
 *
 *   -u UID   run COMMAND as UID (and gid UID, no supplementary groups); needs root.
 *            Pick a UID no other process uses: at the end every process of UID is
 *            killed, wherever it went (setsid, double fork).
 *   -t S     wall-clock deadline in seconds (a decimal): then the whole tree is killed
 *   -c, -m, -p, -f, -n   RLIMIT_CPU (s), RLIMIT_AS (MiB), RLIMIT_NPROC,
 *            RLIMIT_FSIZE (MiB), RLIMIT_NOFILE, applied to COMMAND only
 *   -x FD    keep FD open for COMMAND (every other descriptor above 2 is closed)
 *
 * COMMAND's stdin is /dev/null; its stdout and stderr are jail's (point them at
 * files: a file, unlike a pipe, cannot hold a reader hostage). Exit status: the
 * command's, 128+N when a signal N ended it, 124 when the deadline did, 125 when
 * jail itself failed.
 *
 * How the tree is ended: jail is a child subreaper (orphans of the tree are
 * reparented to it, not to init), COMMAND leads its own process group, and after
 * it ends (or at the deadline) jail kills that group, then every process of UID
 * (with -u: a helper that takes UID and calls kill(-1, SIGKILL) until none is
 * left), then any child still reparented to it (found in /proc), and reaps them
 * all. Under bubblewrap the command is also PID 1's child in a PID namespace: when
 * bwrap ends, the kernel kills the namespace.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
    fprintf(stderr, "jail: %s: %s\n", what, strerror(errno));
    _exit(125);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static void set_limit(int resource, rlim_t value)
{
    struct rlimit r = {value, value};
    if (setrlimit(resource, &r) != 0)
        die("setrlimit");
}

/* Calls fn(pid, text of /proc/PID/FILE, arg) for every process; stops early when
 * fn returns non-zero, and returns that. */
static int each_process(const char *file, int (*fn)(long, char *, void *), void *arg)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    int r = 0;
    while (d != NULL && r == 0 && (e = readdir(d)) != NULL) {
        char path[300], buf[2048];
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/%s", e->d_name, file);
        int fd = open(path, O_RDONLY);
        if (fd < 0)
            continue;
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (n <= 0)
            continue;
        buf[n] = '\0';
        r = fn(atol(e->d_name), buf, arg);
    }
    if (d != NULL)
        closedir(d);
    return r;
}

/* A process whose real, effective or saved uid is *(uid_t *)arg, from its status
 * (readable even for a non-dumpable process). */
static int has_uid(long pid, char *status, void *arg)
{
    char *u = strstr(status, "\nUid:");
    unsigned long r, ef, sv, uid = *(uid_t *)arg;
    (void)pid;
    return u != NULL && sscanf(u + 5, "%lu %lu %lu", &r, &ef, &sv) == 3 &&
           (r == uid || ef == uid || sv == uid);
}

/* Kills a process whose parent is jail, and its process group (a fork bomb that
 * called setsid keeps its children in its own group), from its stat (the name
 * may hold spaces and parentheses: the fields after the last ')' are parsed). */
static int kill_if_child(long pid, char *stat, void *arg)
{
    char *paren = strrchr(stat, ')');
    int ppid = 0, pgrp = 0;
    if (paren != NULL && sscanf(paren + 1, " %*c %d %d", &ppid, &pgrp) == 2 &&
        ppid == *(pid_t *)arg) {
        if (pgrp > 1 && pgrp != getpgrp())
            kill(-pgrp, SIGKILL);
        kill((pid_t)pid, SIGKILL);
    }
    return 0;
}

/* Kills every process of uid from a helper that takes that uid (jail runs as
 * root): kill(-1) reaches exactly the processes it may signal. Rounds go on,
 * reaping in between, until /proc shows no process of uid. */
static void kill_uid(uid_t uid)
{
    for (int round = 0; round < 200 && each_process("status", has_uid, &uid); round++) {
        pid_t h = fork();
        if (h < 0)
            return;
        if (h == 0) {
            if (setgroups(0, NULL) != 0 || setgid(uid) != 0 || setuid(uid) != 0)
                _exit(2);
            kill(-1, SIGKILL);
            _exit(0);
        }
        waitpid(h, NULL, 0);
        while (waitpid(-1, NULL, WNOHANG) > 0) {
        }
        if (round > 0)
            sleep_ms(1);
    }
}

/* Kills every process whose parent is jail (orphans reparented to the subreaper)
 * and reaps; returns when jail has no child left or after about two seconds. */
static void reap_all(void)
{
    pid_t self = getpid();
    for (int round = 0; round < 400; round++) {
        while (waitpid(-1, NULL, WNOHANG) > 0) {
        }
        if (waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD)
            return;
        each_process("stat", kill_if_child, &self);
        sleep_ms(5);
    }
}

int main(int argc, char **argv)
{
    long uid = -1, keep[16];
    int nkeep = 0, opt;
    double deadline_s = 0;
    long cpu_s = 0, as_mb = 0, nproc = 0, fsize_mb = 0, nofile = 0;
    while ((opt = getopt(argc, argv, "+u:t:c:m:p:f:n:x:")) != -1) {
        switch (opt) {
        case 'u': uid = atol(optarg); break;
        case 't': deadline_s = atof(optarg); break;
        case 'c': cpu_s = atol(optarg); break;
        case 'm': as_mb = atol(optarg); break;
        case 'p': nproc = atol(optarg); break;
        case 'f': fsize_mb = atol(optarg); break;
        case 'n': nofile = atol(optarg); break;
        case 'x':
            if (nkeep < 16)
                keep[nkeep++] = atol(optarg);
            break;
        default:
            fprintf(stderr, "usage: jail [-u UID] [-t S] [-c S] [-m MB] [-p N] [-f MB] "
                            "[-n N] [-x FD]... -- COMMAND ARG...\n");
            return 125;
        }
    }
    if (optind >= argc) {
        fprintf(stderr, "jail: no command\n");
        return 125;
    }
    if (uid == 0 || (uid > 0 && geteuid() != 0)) {
        fprintf(stderr, "jail: -u needs root and a uid other than 0\n");
        return 125;
    }
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
        die("PR_SET_CHILD_SUBREAPER");

    double start = now_s();
    pid_t child = fork();
    if (child < 0)
        die("fork");
    if (child == 0) {
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        int null = open("/dev/null", O_RDONLY);
        if (null < 0 || dup2(null, 0) < 0)
            die("/dev/null");
        for (int fd = 3; fd < 1024; fd++) {
            int kept = 0;
            for (int i = 0; i < nkeep; i++)
                kept |= keep[i] == fd;
            if (!kept)
                close(fd);
        }
        if (cpu_s > 0)
            set_limit(RLIMIT_CPU, (rlim_t)cpu_s);
        if (as_mb > 0)
            set_limit(RLIMIT_AS, (rlim_t)as_mb << 20);
        if (fsize_mb > 0)
            set_limit(RLIMIT_FSIZE, (rlim_t)fsize_mb << 20);
        if (nofile > 0)
            set_limit(RLIMIT_NOFILE, (rlim_t)nofile);
        set_limit(RLIMIT_CORE, 0);
        if (uid > 0) {
            if (setgroups(0, NULL) != 0 || setgid((gid_t)uid) != 0 || setuid((uid_t)uid) != 0)
                die("dropping to the sandbox uid");
            if (getuid() != (uid_t)uid || geteuid() != (uid_t)uid)
                die("still privileged");
        }
        if (nproc > 0) /* after setuid: counts the sandbox uid's processes */
            set_limit(RLIMIT_NPROC, (rlim_t)nproc);
        execvp(argv[optind], argv + optind);
        die(argv[optind]);
    }
    setpgid(child, child);

    int status = 0, result = 125, done = 0;
    while (!done) {
        pid_t w;
        while ((w = waitpid(-1, &status, WNOHANG)) > 0) { /* orphans are reaped too */
            if (w == child) {
                result = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
                done = 1;
                break;
            }
        }
        if (done || (w < 0 && errno == ECHILD))
            break;
        if (deadline_s > 0 && now_s() - start >= deadline_s) {
            kill(-child, SIGKILL);
            kill(child, SIGKILL);
            waitpid(child, &status, 0);
            result = 124;
            break;
        }
        sleep_ms(now_s() - start < 0.05 ? 1 : 5);
    }
    kill(-child, SIGKILL);
    if (uid > 0)
        kill_uid((uid_t)uid);
    reap_all();
    return result;
}
