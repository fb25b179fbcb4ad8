#!/usr/bin/env python3
"""How tight a manifest's memory plan is: its own allocation's bytes
against the most bytes its buffers hold at once.

Walks the manifest's program as abi/ProgramLiveness.cpp does (the entry's
steps, each loop's condition and body in place, a conditional's branches
one after another) to find each placed buffer's first and last tick, then
sums, per tick, the bytes of the buffers live at it, each rounded up to
the plan's 256-byte alignment. An allocation at that peak (ratio 1.000)
is as small as these buffers and lives allow: what is left against XLA's
figure is then in which values are one buffer and how long they live, not
in where they were placed.

  bench/plan_live_peak.py MANIFEST.json [--exact]

--exact: each buffer's own bytes, not rounded to the alignment (how much
of the peak the rounding is).
"""
import json,sys
from collections import defaultdict
EXACT='--exact' in sys.argv
m=json.load(open([a for a in sys.argv[1:] if a!='--exact'][0]))
prog=m['program']; kernels=m['kernels']
byc=defaultdict(list)
for i,s in enumerate(prog): byc[s['computation']].append(i)
entry=next((b['computation'] for b in m['buffers'] if b['kind'] in ('parameter','output')), prog[0]['computation'])
uses=defaultdict(list); t=[0]; walks=defaultdict(int)
def name(b):
    if b['binds']=='parameter': return '<parameter %d>'%b['parameter']
    if b['binds']=='output': return '<output %d>'%b['output']
    return b['buffer']
def touch(bs,tick):
    for b in bs: uses[name(b)].append(tick)
def tick():
    t[0]+=1; return t[0]-1
def walk(c,d=0):
    walks[c]+=1
    for i in byc.get(c,[]):
        s=prog[i]; b=tick(); pb=s.get('parameter_buffers',[])
        k=s['step']
        if k=='launch': touch(kernels[s['launch']]['parameters'],b)
        elif k in('copy','library'): touch(s.get('arguments',[])+s.get('results',[]),b)
        elif k=='while':
            touch(s.get('arguments',[])+s.get('results',[]),b)
            for names in pb[:2]:
                for n in names: uses[n].append(b)
            cs=s.get('computations',[])
            for j,c2 in enumerate(cs[:2]):
                walk(c2,d+1)
                if j==0:
                    tp=tick()
                    for kk in kernels:
                        if kk.get('hlo_instruction')==s.get('predicate') and kk.get('hlo_computation')==cs[0]:
                            touch([p for p in kk['parameters'] if p['direction']=='out'],tp)
            l=tick(); touch(s.get('body_results',[])+s.get('results',[]),l)
            for names in pb[:2]:
                for n in names: uses[n].append(l)
        elif k=='conditional':
            touch(s.get('arguments',[]),b)
            for ops in s.get('branch_arguments',[]): touch(ops,b)
            for j,c2 in enumerate(s.get('computations',[])):
                f=tick()
                if j<len(s.get('branch_arguments',[])): touch(s['branch_arguments'][j],f)
                if j<len(pb):
                    for n in pb[j]: uses[n].append(f)
                walk(c2,d+1)
                l=tick()
                if j<len(s.get('branch_results',[])): touch(s['branch_results'][j],l)
                touch(s.get('results',[]),l)
        elif k=='call':
            for c2 in s.get('computations',[]): walk(c2,d+1)
start=tick(); walk(entry); last=tick()
ev=defaultdict(int)
for a in m['allocations']:
    if a.get('parameter') is not None: continue
    for e in a['buffers']:
        ts=[x for n in e['names'] for x in uses.get(n,[])]
        if any(n.startswith('<output') for n in e['names']): ts.append(last)
        if not ts: ts=[0,last]
        r=e['bytes'] if EXACT else (e['bytes']+255)//256*256; ev[min(ts)]+=r; ev[max(ts)+1]-=r
cur=peak=0
for k in sorted(ev): cur+=ev[k]; peak=max(peak,cur)
own=sum(a['bytes'] for a in m['allocations'] if a.get('parameter') is None)
print('own allocation', own, 'peak live', peak, 'ratio %.3f'%(own/peak if peak else 0), 'repeated computations', sum(1 for c,v in walks.items() if v>1))
