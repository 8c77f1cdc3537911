"""Prints an hlo-dialect module solving every left_side x lower x
unit_diagonal x transpose_a combination of hlo.triangular_solve for three
systems: 2 matrices of 7 and 2 of 130 (the diagonal-block inversion) and 12
of 7 (XLA's SolveDirectly). Parameters, in order: the a's tri2x7, tri12x7,
tri2x130, then the b's rhsl7, rhsr7, rhsd7, rhsdr7, rhsl130, rhsr130 of
linalg_inputs.py; 48 results.
"""
import itertools
args=[]; body=[]; rets=[]; i=0
sig={'a7':'2x7x7','d7':'12x7x7','a130':'2x130x130','l7':'2x7x5','r7':'2x3x7','dl7':'12x7x3','dr7':'12x4x7','l130':'2x130x3','r130':'2x5x130'}
for A,L,R in (('a7','l7','r7'),('d7','dl7','dr7'),('a130','l130','r130')):
  for left,lower,unit,tr in itertools.product([True,False],repeat=4):
    B = L if left else R
    attrs=[k for k,v in (('left_side',left),('lower',lower),('unit_diagonal',unit),('transpose_a',tr)) if v]
    at='{'+', '.join(a+' = true' for a in attrs)+'}'
    body.append(f"  %s{i} = hlo.triangular_solve %{A}, %{B} {at} : (tensor<{sig[A]}xf32>, tensor<{sig[B]}xf32>) -> tensor<{sig[B]}xf32>")
    rets.append((f"%s{i}", f"tensor<{sig[B]}xf32>")); i+=1
params=', '.join(f"%{k}: tensor<{v}xf32>" for k,v in sig.items())
print(f"func.func @main({params}) -> ({', '.join(t for _,t in rets)}) {{")
print('\n'.join(body))
print(f"  return {', '.join(r for r,_ in rets)} : {', '.join(t for _,t in rets)}\n}}")
