"""The JAX program that mlp_train_step.hlo and cnn_train_step.hlo stand for.

The demo does not need JAX: the .hlo files were written by hand in the form
XLA dumps `jax.jit(train_step).lower(params, x, labels)` before optimisation
(their metadata points at the lines below). See examples/README.md.
"""
import functools

import jax
import jax.numpy as jnp


def mlp(params, x):  # x f32[256,64] -> 128 -> 10, learning rate 0.1
    h = jax.nn.relu(x @ params["w1"] + params["b1"])
    return h @ params["w2"] + params["b2"]


def cnn(params, x):  # x f32[8,16,16,3] NHWC -> 16 channels -> 10, rate 0.3
    y = jax.lax.conv_general_dilated(x, params["w1"], (1, 1), ((1, 1), (1, 1)),
                                     dimension_numbers=("NHWC", "HWIO", "NHWC"))
    h = jax.nn.relu(y + params["b1"])
    return h.mean(axis=(1, 2)) @ params["w2"] + params["b2"]


def loss_fn(model, params, x, labels):
    logp = jax.nn.log_softmax(model(params, x))
    return -jnp.mean(jnp.sum(labels * logp, axis=-1))


def make_train_step(model, lr):
    @functools.partial(jax.jit, donate_argnums=0)
    def train_step(params, x, labels):
        loss, grads = jax.value_and_grad(functools.partial(loss_fn, model))(
            params, x, labels)
        params = jax.tree.map(lambda p, g: p - lr * g, params, grads)
        return params, loss
    return train_step
